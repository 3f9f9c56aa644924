mkdir -p out && echo "created" > out/status.txt && cat out/status.txt
false && echo "never printed" || echo "fallback ran"
true || echo "never" && echo "and runs after or"
[ -f missing.txt ] && echo yes || echo no
