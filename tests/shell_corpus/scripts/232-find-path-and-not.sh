find . -path ./logs -prune -o -name "*.log*" -print | sort
find src -type f ! -name "__init__.py" | sort
find . -name "*.txt" -not -path "*/notes/*" | sort
