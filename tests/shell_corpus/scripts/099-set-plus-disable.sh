set -e
set +e
false
echo "continued: $?"
set -u
set +u
echo "unset is empty: [$nothing]"
