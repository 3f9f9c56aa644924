f() { (exit 9); echo "f continues after subshell exit: $?"; }
f
g() { exit 6; }
g
echo "not printed"
