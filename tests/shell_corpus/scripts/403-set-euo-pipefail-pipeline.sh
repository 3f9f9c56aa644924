set -euo pipefail
cat data/users.csv | grep admin | cut -d, -f2
cat nosuch.txt 2>/dev/null | wc -l
echo "never"
