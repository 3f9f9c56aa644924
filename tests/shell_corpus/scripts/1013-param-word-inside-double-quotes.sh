# Inside "${v:-word}" the word is double-quoted text: single quotes stay,
# a backslash stays before what it does not escape; unquoted they go.
var='a b c'
printf '<%s>\n' "${Unset:-'b'}" "${Unset:-'$var'}" ${Unset:-'b'} "${Unset:-"q $var"}"
printf '<%s>\n' "${Unset-\z}" "${Unset-\$}" "${Unset-\"}" "${Unset-\\}" "${var:+'x'}"
printf '<%s>\n' "${Unset:-$(echo 'in sub')}"
set -- "" ""
echo "[${@:-minus}] [${@:+plus}] [${*:-minus}]"
IFS=
echo "[${*:-minus}]"
IFS=' '
a=([3]=x [5]=y [9]=z)
echo "${a[@]:4}|${a[@]: -6:2}|${a[@]: -20}|${a[*]:4:1}"
echo "${a[@]:1:-1}"
echo never
