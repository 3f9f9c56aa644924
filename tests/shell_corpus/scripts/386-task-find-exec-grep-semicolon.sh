find src -name '*.py' -exec grep -c 'def ' {} \; | sort -n | tr '\n' ' '; echo
find src -name '*.py' -exec grep -H -c 'def ' {} \; | sort
