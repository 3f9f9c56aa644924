# shopt -s failglob: a glob matching nothing is an error that abandons the
# current line (status 1); other lines go on.
shopt -s failglob
echo src/*.py
echo *.nope; echo "same line"
echo "next $?"
x=$(echo *.nope; echo in-sub); echo "sub $? [$x]"
( echo *.nope; echo in-paren ); echo "paren $?"
echo *.nope | cat; echo "pipe ${PIPESTATUS[*]}"
f() { echo "in f"; echo *.nope; echo "after in f"; }
f; echo "after f"
echo "status $?"
for g in *.nope; do echo "$g"; done
[[ *.nope == *.nope ]] && echo "no glob in [["
case x.nope in *.nope) echo "no glob in case";; esac
y=*.nope; echo "$y"
shopt -s nullglob; echo both *.nope; echo "both"
shopt -u failglob; echo "null [" *.nope "]"
