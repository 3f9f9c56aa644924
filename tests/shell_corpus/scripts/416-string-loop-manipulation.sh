s="Hello World From Bash"
rev=""
for ((i=${#s}-1; i>=0; i--)); do rev+=${s:i:1}; done
echo "$rev"
for w in $s; do printf '%s' "${w:0:1}"; done; echo
echo "${s,,}" | tr ' ' '-'
up=${s^^}; echo "${up// /_}"
