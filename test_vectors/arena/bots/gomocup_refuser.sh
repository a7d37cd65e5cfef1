#!/bin/sh
# Gomocup brain that refuses at once, before reading `START`, and exits.
echo "ERROR not today"
exit 2
