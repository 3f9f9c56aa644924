read -r a b c <<< "1 2 3 4 5"
echo "a=$a b=$b c=$c"
read -r line <<< '  padded \t value  '
echo "[$line]"
IFS= read -r raw <<< '  keep spaces  '
echo "[$raw]"
read -r -a parts <<< "x y z"
echo "${parts[1]} of ${#parts[@]}"
