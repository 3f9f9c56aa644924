find . -name "*.py" | sort
find src -name "*.py" -type f | sort
find . -name "*.md" | sort
