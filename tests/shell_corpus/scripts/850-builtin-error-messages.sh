printf '%d\n' abc 2>&1; echo "status $?"
printf '%d\n' 99999999999999999999 2>&1
printf 'a%z' 2>&1; echo " status $?"
printf 2>&1; echo "status $?"
printf -q x 2>&1; echo "status $?"
f() { printf '%d|' 1x 2; }; f 2>&1; echo
x=1
(echo ${x.y}) 2>&1; echo "status $?"
(set -u; echo "a$1b") 2>&1; echo "status $?"
(set -u; echo "${1}") 2>&1; echo "status $?"
