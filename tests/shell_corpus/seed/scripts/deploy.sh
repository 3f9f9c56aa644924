#!/bin/bash
set -e
echo "deploying $1"
make install
