# Extended patterns in ${v#p} ${v##p} ${v%p} ${v%%p} ${v/p/r} ${v//p/r}.
shopt -s extglob
v=aaabbbccc
echo "${v#+(a)}" "${v##*(a|b)}" "${v%+(c)}" "${v%%@(b|c)*}"
echo "${v/+(b)/-}" "${v//@(a|c)/.}" "${v//!(b)/_}" "${v/#?(a)a/^}" "${v/%c?(c)/$}"
path=src/lib/helpers.py
echo "${path##*/}" "${path%.@(py|sh)}" "${path//+([a-z])/w}"
line='  key =   value  '
t=${line##+([[:space:]])}; t=${t%%+([[:space:]])}
echo "[$t]" "[${t//+([ ])/ }]"
n=000120
echo "${n##+(0)}"
files=(a.txt b.md c.txt)
echo "${files[@]%.@(txt|md)}" "${files[@]/#!(b*)/x-}"
shopt -u extglob
w='@(a)'; echo "${v#@(a)}" "${w#@(a)}"
