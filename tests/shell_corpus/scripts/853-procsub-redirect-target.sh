echo x > >(sed 's/^/got: /' > out1.txt)
ls nope 2> >(sed 's/^/E: /' > err.txt)
echo "status $?"
sort -r < <(printf 'a\nb\n')
while read -r l; do echo "[$l]"; done 3< <(printf '1\n2\n') <&3
{ echo one; echo two; } > >(wc -l > count.txt)
for i in 1 2 3; do echo "line $i"; done > >(tail -n 1 > last.txt)
sleep 0.3
cat out1.txt err.txt count.txt last.txt
