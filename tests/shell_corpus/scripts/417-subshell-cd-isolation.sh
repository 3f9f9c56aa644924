(cd src && ls *.py && basename "$PWD")
basename "$PWD" | grep -c src
(cd src/lib && cat helpers.py | wc -l)
(cd nosuch 2>/dev/null && echo in) || echo "cd failed rc=$?"
