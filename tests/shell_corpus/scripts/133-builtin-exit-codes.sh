check() { return "$1"; }
check 0; echo $?
check 7; echo $?
check 255; echo $?
(exit 300); echo $?
exit 4
echo "unreachable"
