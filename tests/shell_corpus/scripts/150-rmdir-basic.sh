mkdir -p empty/inner
rmdir empty/inner
rmdir empty
ls -d empty 2>/dev/null || echo "gone"
rmdir src 2>/dev/null || echo "src not empty"
rmdir nosuch 2>/dev/null; echo "status $?"
