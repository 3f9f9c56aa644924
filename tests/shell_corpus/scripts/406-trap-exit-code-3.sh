trap 'echo cleanup; rm -f build/tmp.txt' EXIT
echo data > build/tmp.txt
ls build
exit 3
