# `< FILE` on a file larger than one read (256 KiB): every reader of the
# redirected stdin sees the whole file, and readers that share it go on
# where the previous one stopped.
seq 1 100000 > big.txt
wc -l < big.txt
wc -c < big.txt
tail -c 14 < big.txt
{ head -n 2; read -r third; echo "third: $third"; tail -n 1; } < big.txt
n=0
while read -r line; do n=$((n + 1)); [ "$n" -ge 3 ] && break; done < big.txt
echo "loop stopped at $n: $line"
grep -c 99 < big.txt
awk 'END { print NR, $0 }' < big.txt
sort -rn < big.txt | head -n 1
cat < big.txt | tail -n 1
exec 3< big.txt
read -r a <&3
read -r b <&3
echo "fd 3: $a $b"
wc -l <&3
exec 3<&-
rm big.txt
