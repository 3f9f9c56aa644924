set -u
name=ok
echo "$name"
echo "${missing:-default works}"
echo "$missing"
echo "not reached"
