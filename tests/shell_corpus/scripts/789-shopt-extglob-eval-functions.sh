# extglob in eval (read line by line too) and in functions, matched as the
# option is when the match runs.
eval 'shopt -s extglob
echo src/@(app|models).py'
eval 'echo a; echo @(x'
echo "eval status $?"
g() { [[ $1 == +([0-9]) ]] && echo "$1 digits" || echo "$1 not"; }
shopt -u extglob
g 42; g 4x
shopt -s extglob
h() { case $1 in +([0-9])) echo "$1 num";; *) echo "$1 other";; esac; }
h 7
shopt -u extglob
h 7
