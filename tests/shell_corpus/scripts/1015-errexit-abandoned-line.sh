# Under set -e a line abandoned by an error (a readonly assignment) ends
# the script with status 1.
set -o errexit
readonly foo=bar
echo before
foo=eggs
echo never
