# pushd/popd/dirs, builtin, declare -u/-l, set -o with a bad name, for ((;;)).
pushd src >/dev/null; basename "$PWD"
pushd lib | wc -w
dirs | wc -w
pushd lib >/dev/null; basename "$PWD"; dirs -v | wc -l
popd >/dev/null; basename "$PWD"
popd >/dev/null; [ "$PWD" = "$HOME" ] && echo "back home"; dirs
popd 2>&1; echo "empty: $?"
pushd nosuch 2>&1; echo "missing: $?"
echo() { builtin echo "wrapped: $*"; }
echo hi; unset -f echo
builtin nosuch 2>&1; echo "not builtin: $?"
declare -u up=hello; echo "$up"; up="mixed Case"; echo "$up"
declare -l low=HeLLo; echo "$low"; low+=WORLD; echo "$low"
set -o nosuchopt 2>&1; echo "set: $?"
for ((i=0;;i++)); do [ $i -ge 3 ] && break; echo "i=$i"; done
n=0; for ((;;)); do n=$((n+1)); [ $n -eq 4 ] && break; done; echo "n=$n"
for ((i=3; i>0; )); do echo "down $i"; i=$((i-1)); done
