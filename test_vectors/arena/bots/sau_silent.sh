#!/bin/sh
# SAU engine that reads its commands but never answers, not even `name?`.
while read -r line; do :; done
