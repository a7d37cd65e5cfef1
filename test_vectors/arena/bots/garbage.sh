#!/bin/sh
# Botzone JSON bot that answers with text that is not a move.
read -r line
echo 'I think I will play somewhere nice'
