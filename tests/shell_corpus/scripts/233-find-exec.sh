find src -name "*.py" -exec wc -l {} \; | sort -k2
find . -name "*.csv" -exec head -n 1 {} \; | sort
find docs -type f -exec grep -l "README" {} + | sort
