#!/bin/sh
# Botzone JSON bot that dies without answering, saying why on standard error.
read -r line
echo "crasher: no luck today" >&2
exit 3
