printf 'a\nb\nc' > build/x.txt
n=0; while read -r l; do n=$((n+1)); done < build/x.txt; echo "n=$n"
n=0; while read -r l || [ -n "$l" ]; do n=$((n+1)); done < build/x.txt; echo "n=$n"
wc -l < build/x.txt
