ls data | xargs -I{} echo "file: {}"
printf '%s\n' one two | xargs -I % echo '<%>' '%'
find notes -type f | sort | xargs -I{} basename {} .txt
