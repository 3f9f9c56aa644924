echo "this line runs: bash -c parses and runs one command at a time"
if true; then
  echo inside
