files=(src/app.py src/utils.py src/models.py)
echo "${files[@]#src/}"
echo "${files[@]%.py}"
echo "${files[@]/src/lib}"
echo "${files[@]^^}"
