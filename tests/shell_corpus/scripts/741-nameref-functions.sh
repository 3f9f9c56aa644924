# Passing arrays and result variables to functions by name
fill() { local -n dest=$1; mapfile -t dest < <(printf '%s\n' a b c); }
fill got; echo "${#got[@]} ${got[2]}"
declare -A cfg=([host]=h [port]=80)
show() { local -n m=$1; for k in "${!m[@]}"; do echo "$k=${m[$k]}"; done | sort; m[extra]=1; }
show cfg; echo "${#cfg[@]}"
swap() { local -n x1=$1 x2=$2; local t=$x1; x1=$x2; x2=$t; }
p=1; q=2; swap p q; echo "$p $q"
sum() { local -n arr=$1; local total=0 v; for v in "${arr[@]}"; do (( total += v )); done; echo "$total"; }
nums=(1 2 3 4); sum nums
append() { declare -n list=$1; shift; list+=("$@"); }
items=(); append items one "two words"; printf '<%s>\n' "${items[@]}"
result() { local -n out=$1; out="from ${FUNCNAME[0]}"; }
result answer; echo "$answer"
count_lines() { local -n total=$2; total=$(wc -l < "$1"); }
count_lines data/sales.csv lines; echo "lines=$lines"
declare -n c1=c2; declare -n c2=c1; echo "[$c1]" 2>/dev/null
c1=5 2>/dev/null; echo "after"
echo "status $?"
