# An indexed array cannot become associative, nor the other way round.
declare -a a=(1 2 3)
declare -A a=([x]=y) 2>/dev/null
echo "status=$? ${a[*]}"
declare -A A=([k]=v)
declare -a A 2>/dev/null
echo "status=$? ${A[k]}"
s=scalar
declare -A s
declare -p s
f() { local -a A=(local); echo "in f: ${A[*]}"; }
f
