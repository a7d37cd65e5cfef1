#!/bin/sh
# Botzone JSON bot that thinks far too long before a legal answer.
read -r line
sleep 5
echo '{"response":{"x":0,"y":0}}'
