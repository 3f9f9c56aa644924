nosuchtool < README.md | wc -l
echo "pipeline status $?"
set -o pipefail
nosuchtool < README.md | wc -l
echo "with pipefail $?"
