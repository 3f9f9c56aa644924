seq 6 | xargs -n 2 echo
seq 3 | xargs -I % echo "item % done"
find src -name "*.py" | sort | xargs grep -c "def"
