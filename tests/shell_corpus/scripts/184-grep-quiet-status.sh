if grep -q "debug = true" config.ini; then echo "debug on"; else echo "debug off"; fi
grep -q port config.ini; echo "found: $?"
grep -q nosuch config.ini; echo "missing: $?"
grep -q x nosuchfile 2>/dev/null; echo "error: $?"
