echo $'tab:\there' $'newline:\nnext'
printf '%s|' $'a\tb' $'quote\x27s' $'bell\x21'
echo
echo $'\x41\x42\x43' $'\101'
