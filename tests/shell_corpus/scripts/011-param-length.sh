path="src/lib/helpers.py"
echo "${#path}"
empty=
echo "${#empty}"
set -- a bb ccc
echo "$# ${#1} ${#3}"
