#!/bin/sh
# Botzone JSON bot that dies without answering.
read -r line
exit 3
