printf "a\nb\nc\nd\n" > f
mapfile -t -s1 -n2 lines < f; echo "${#lines[@]}: ${lines[*]}"
mapfile -ts2 rest < f; echo "${rest[@]}"
