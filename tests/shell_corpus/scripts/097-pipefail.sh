grep ERROR nosuchfile.log 2>/dev/null | wc -l
echo "without pipefail: $?"
set -o pipefail
grep ERROR nosuchfile.log 2>/dev/null | wc -l
echo "with pipefail: $?"
