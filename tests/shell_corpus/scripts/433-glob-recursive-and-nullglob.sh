echo src/*.py
echo src/*/*.py
shopt -s nullglob
arr=(nosuch/*.zz)
echo "count=${#arr[@]}"
shopt -u nullglob
echo nosuch/*.zz
