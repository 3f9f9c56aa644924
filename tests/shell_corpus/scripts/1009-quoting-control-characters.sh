# Values with control characters print as $'...' in declare -p, set,
# ${v@Q} and arrays.
x=$'a\tb\001c"d\\e\'f'
declare -p x
y=$'line1\nline2'
declare -p y
echo "${y@Q}"
set | grep '^y='
declare -a arr=($'p\nq' plain)
declare -p arr
z='plain "quoted" $dollar'
declare -p z
echo "${z@Q}"
declare -p IFS
