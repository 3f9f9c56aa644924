# A script in a folder on PATH runs by name: the first executable match
# wins, a file without an execute bit is skipped; command -v, type -P/-a
# and source look along PATH too. (Lookups come before the runs: bash
# would answer from its hash table afterwards.)
mkdir -p one two lib
printf 'echo one "$@"\n' > one/tool
printf 'echo two "$0" "$@"\n' > two/tool
chmod +x two/tool
printf 'echo mine\n' > two/mine
chmod +x two/mine
printf 'echo sourced; LIBVAR=set\n' > lib/helpers.sh
PATH="one:two:$PATH"
command -v tool mine
command -v nothere mine; echo "command -v any found: $?"
command -v nothere; echo "none found: $?"
type -P mine
type -t mine
type -a mine
type -P cd; echo "type -P builtin: $?"
type -ap cd; echo "type -ap builtin: $?"
type -t echo nothere; echo "type with a missing name: $?"
tool a b
mine
PATH="lib:$PATH" . helpers.sh
echo "LIBVAR=$LIBVAR"
builtin -- echo via builtin
