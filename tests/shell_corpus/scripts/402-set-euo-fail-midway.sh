set -euo pipefail
echo "start"
n=$(grep -c ERROR logs/app.log)
echo "errors: $n"
grep -c NOPE logs/app.log
echo "unreachable"
