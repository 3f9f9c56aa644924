exec 2>&1
files=()
while IFS= read -r -d '' f; do files+=("$f"); done < <(find src -name '*.py' -print0)
echo "py files: ${#files[@]}"
printf 'a b\0c\0' | while IFS= read -r -d '' w; do echo "[$w]"; done
read -r -d '' text <<'EOT'
all of it
EOT
echo "status $? [$text]"
opts() { local OPTIND o; while getopts "ab:" o; do echo "opt $o ${OPTARG-}"; done; }
opts -a -x -b
[[ -n $BASH_VERSION ]] && echo "bash ${BASH_VERSINFO[0]}"
f() { echo a | grep -q a 2>&1 && echo ok; }
declare -F f
declare -F nope; echo "status $?"
declare -f f
set -E
trap 'echo "failed: $BASH_COMMAND"' ERR
g() { false; }
g
