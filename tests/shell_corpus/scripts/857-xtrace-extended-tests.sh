exec 2>&1
set -x
x=abc
[[ $x == a* ]] && echo glob
[[ ! -f nope ]]
[[ $x =~ ^a ]]
[[ 1 -lt 2 && -n $x ]]
[[ $nope == *x* && -n 1 ]]
[[ "a b" != c ]]
echo "${SHELL:+shell set}"
