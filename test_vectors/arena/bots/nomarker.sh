#!/bin/sh
# Keep-running bot that answers but forgets the keep-running marker, then waits for input.
read -r line
echo '{"response":{"x":0,"y":0}}'
while read -r line; do echo '{"response":{"x":1,"y":1}}'; done
