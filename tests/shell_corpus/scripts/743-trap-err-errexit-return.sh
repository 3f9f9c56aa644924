# set -eE with ERR and EXIT traps; RETURN traps, set -T; trap -p listing
trap 'echo "ret from ${FUNCNAME[0]:-source} status $?"' RETURN
f() { return 4; }
f; echo "f gave $?"
set -T
h() { echo in h; }
h
echo 'x=1' > s.sh; source ./s.sh; rm s.sh
trap - RETURN
h
trap 'echo "x"' EXIT; trap '' INT; trap 'echo t' TERM 15; trap ':' HUP
trap -p
echo ---
trap -p INT EXIT
trap - INT TERM HUP
trap -p NOSUCH; echo "status $?"
set -eE
trap 'echo "caught $? at line $LINENO"' ERR
cleanup() { echo "cleanup"; }
trap cleanup EXIT
k() { echo "k start"; false; echo "never"; }
if k; then echo "k ok in if"; fi
k || echo "k failed in ||"
m() { local r; r=$(false); echo "r done"; }
m
echo "not reached"
