# shopt -s lastpipe: without job control the last stage runs in the shell.
shopt -s lastpipe
echo x | read v
echo "v=$v"
printf 'a\nb\n' | while read -r l; do last=$l; done
echo "last=$last"
grep -c INFO logs/app.log | read n
echo "n=$n"
seq 3 | mapfile -t arr
echo "${#arr[@]} ${arr[2]}"
false | true; echo "${PIPESTATUS[@]}"
shopt -q lastpipe && echo on
shopt -u lastpipe
echo y | read w
echo "w=$w"
shopt -s lastpipe
echo q | { read z; echo "z=$z"; exit 4; }
echo never
