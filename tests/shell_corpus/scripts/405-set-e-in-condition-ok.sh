set -e
if grep -q nothere config.ini; then echo found; else echo "not found"; fi
grep -q nothere config.ini || echo "fallback"
! grep -q nothere config.ini && echo "negated"
false && echo no
echo "still running"
