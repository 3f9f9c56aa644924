list=()
for f in src/*.py; do list+=("$f"); done
echo "${#list[@]} files"
echo "last: ${list[${#list[@]}-1]}"
list[10]=extra
echo "${!list[@]}"
echo "${list[10]}"
