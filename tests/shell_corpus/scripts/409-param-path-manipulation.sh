p=src/lib/helpers.py
echo "${p##*/} ${p%/*} ${p%.py} ${p##*.}"
echo "${p//\//_}"
echo "${p/lib/core}"
echo "${p^^}"
echo "${#p}"
echo "${p:4:3}"
