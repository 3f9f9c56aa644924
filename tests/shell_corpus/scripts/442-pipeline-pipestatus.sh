false | true; echo "${PIPESTATUS[@]}"
grep -c ERROR logs/app.log | cat; echo "${PIPESTATUS[0]} ${PIPESTATUS[1]}"
set -o pipefail
cat nosuch 2>/dev/null | sort; echo "rc=$?"
