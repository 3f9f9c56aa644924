find . -name '*.py' -exec grep -l 'import' {} + | sort
