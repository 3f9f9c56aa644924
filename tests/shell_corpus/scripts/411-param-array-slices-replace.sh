files=(src/app.py src/models.py src/utils.py)
echo "${files[@]##*/}"
echo "${files[@]/.py/.txt}"
echo "${files[@]:1}"
echo "${#files[1]}"
names=("${files[@]%.py}")
printf '<%s>\n' "${names[@]}"
