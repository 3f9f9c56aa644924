yes | head -n 3
echo "${PIPESTATUS[@]}"
seq 1 1000000000 | head -n 2
echo "${PIPESTATUS[@]}"
for i in {1..60000}; do echo y; done | head -n 1
echo "${PIPESTATUS[@]}"
set -o pipefail
yes | head -n 1; echo "pipefail: $?"
seq 1 5 | head -n 1; echo "small: $?"
