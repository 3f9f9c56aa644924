echo "files: $(find . -type f | wc -l)"
echo "dirs: $(find . -mindepth 1 -type d | wc -l)"
echo "python: $(find . -name '*.py' | wc -l)"
echo "largest log: $(wc -l < logs/app.log) lines"
