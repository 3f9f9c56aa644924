a=(one two three four five)
echo "${a[@]:1:2}"
echo "${a[@]:3}"
unset 'a[1]'
echo "${a[@]}" "(${#a[@]})"
echo "${!a[@]}"
