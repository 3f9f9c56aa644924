unset a
b=
[ -z "${a+x}" ] && echo "a is unset"
[ -n "${b+x}" ] && echo "b is set (empty)"
echo "${a-unset default}" "[${b-unset default}]"
