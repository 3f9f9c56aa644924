a=foo
b=bar
echo "$a$b" "${a}_$b" "$a"_"$b" '$a'"$b"
echo ""x"" ''y''
c=
echo "[$c]" [${c}] "${c}end"
