echo a\ b\ \ c
echo "dollar \$HOME, quote \", backslash \\, other \q"
echo \$PATH \"quoted\" \\ end
printf '%s\n' one\
two
