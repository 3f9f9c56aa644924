rm notes/ideas.txt
ls notes
rm -r logs/old
ls logs
rm -f nosuch.txt && echo "rm -f is quiet"
rm -rf build
ls -d build 2>/dev/null || echo "build removed"
