set -u
set -- one
echo "$1"
echo "${2:-no second}"
echo "$#"
echo "$2"
echo "never"
