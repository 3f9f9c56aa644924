# A malformed [[ ]] is a syntax error that bash -c reports without a
# status of its own: the script ends with the last command's.
echo before
false
[[ -z ]]
echo never
