# sort -m merges its inputs as they are (unsorted input stays unsorted),
# the earlier input first on ties, with keys, -r, -n, -u and stdin.
printf 'a\nb\nc\nd\n' > d1
printf 'a\nB\nc\ne\nf\n' > d2
printf 'b 2\na 10\nc 1\na 2\n' > kv
sort -m d1 d2
sort -m d2 d1
sort -mu d1 d1
sort -m -r <(printf 'c\nb\n') <(printf 'd\na\n')
sort -m -n <(printf '1\n10\n') <(printf '2\n3\n')
sort -m -k2,2n kv <(printf 'z 0\nz 5\n')
printf 'b\na\n' | sort -m - d1
sort -m -u -k1,1 <(printf 'a 1\nb 1\n') <(printf 'a 2\nc 2\n')
sort -m -o d1 d1 d2; cat d1
