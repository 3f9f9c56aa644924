# trap ERR: which failures set it off (as set -e), $? and $LINENO inside
trap 'echo "ERR at $LINENO status $?"' ERR
false
{ false; }
( false )
if false; then :; fi
false || true
false && true
! false
f() { false; echo "in f"; }
f
g() { return 3; }
g
x=$(false)
echo "x status $?"
false | true
true | false
while false; do :; done
for i in 1; do false; done
case a in a) false;; esac
[[ -z x ]]
(( 0 ))
grep -q nomatch data/sales.csv
set -E
f
y=$(false; echo inner)
echo "$y"
trap - ERR
false
echo "end $?"
