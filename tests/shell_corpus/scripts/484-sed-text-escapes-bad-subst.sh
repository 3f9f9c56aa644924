# sed a/i/c text with \t and \n, and ${a.b} reported as a bad substitution.
printf 'x\ny\n' | sed '1a\\tindented\nnext'
printf 'x\n' | sed 'i\first\tline'
printf 'x\n' | sed 'c\changed\\n'
sed '/^\[server\]/a\port_note = see docs\ttab' config.ini | head -4
a=1; echo "${a.b}"; echo "not printed"
echo "status $?"
echo "${a}" "${a:-x}" '${a.b}'
