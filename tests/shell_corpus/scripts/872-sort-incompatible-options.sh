# sort refuses the option pairs GNU sort refuses (status 2), and the
# argument errors of --check and --sort (status 1).
printf '10K\n2M\n1G\n512\n3k\n' > sizes
printf 'b 2\na 10\nc 1\na 2\n' > kv
for opts in -hn -nV -dn -dR -Mn -ibn -gM -nR -in -fn -fM -hg -rn -bV; do
  sort $opts kv > /dev/null 2>&1; echo "$opts: $?"
done
sort -hn sizes 2>&1
sort -k1,1nV kv 2>&1
sort -k2n -k1,1 -hV kv 2>&1
sort -k2,2hn kv 2>&1
sort -n -k1,1g kv; echo "s=$?"
sort -ng -k2,2g kv; echo "s=$?"
sort -nrb -g kv 2>&1; echo "s=$?"
sort -c -C kv 2>&1; echo "s=$?"
sort -c -o x kv 2>&1; echo "s=$?"
sort -C -o x kv 2>&1; echo "s=$?"
sort -c kv kv 2>&1; echo "s=$?"
sort -C kv kv 2>&1; echo "s=$?"
sort -t: -t, kv 2>&1; echo "s=$?"
sort -t: -t: kv; echo "s=$?"
sort -o a -o b kv 2>&1; echo "s=$?"
sort -o a -o a kv; echo "s=$?"; cat a
sort --check=foo kv 2>&1; echo "s=$?"
sort --check=quiet kv; echo "s=$?"
sort --check=silent sizes; echo "s=$?"
sort --check=diagnose-first kv 2>&1; echo "s=$?"
sort --sort=foo kv 2>&1; echo "s=$?"
sort --sort=human-numeric sizes
sort -h sizes
sort -V -r sizes
