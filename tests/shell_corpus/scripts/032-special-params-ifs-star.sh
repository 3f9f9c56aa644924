set -- a b c
IFS=,
echo "$*"
IFS=:
echo "${*}"
unset IFS
echo "$*"
echo "${#@}" "${@:2}" "${@:1:2}"
