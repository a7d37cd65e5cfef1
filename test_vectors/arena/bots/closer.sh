#!/bin/sh
# Keep-running bot that closes its input after the first turn (before answering), then lingers.
read -r line
exec 0<&-
echo '{"response":{"x":0,"y":0}}'
echo '>>>BOTZONE_REQUEST_KEEP_RUNNING<<<'
sleep 30
