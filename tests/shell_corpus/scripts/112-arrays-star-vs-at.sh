a=("x y" z)
printf '[%s]\n' "${a[@]}"
printf '[%s]\n' "${a[*]}"
printf '[%s]\n' ${a[@]}
IFS=-; echo "${a[*]}"
