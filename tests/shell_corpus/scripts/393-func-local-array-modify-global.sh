declare -a stack=()
push() { stack+=("$1"); }
pop() { local top=${stack[-1]}; unset 'stack[-1]'; echo "$top"; }
push a; push b; push c
pop
echo "${stack[@]} (${#stack[@]})"
push d
echo "${stack[*]}"
