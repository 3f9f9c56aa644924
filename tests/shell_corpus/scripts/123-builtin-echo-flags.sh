echo -n "no newline"
echo " then more"
echo -e "tab\there\nnewline"
echo -E "raw\tstays"
echo -ne "a\tb\n"
echo -- -n is printed
echo
