set -u
count() { echo "$#:$*"; }
a=()
count "${a[@]+"${a[@]}"}"
count "${a[@]+x}" "${a[*]+x}" "x${a[@]+y}"
a=(1 "2 3")
count "${a[@]+"${a[@]}"}"
count "${a[@]+${a[@]}}"
count "${a[@]+x}"
count "${x:-user@host}"
set -- p "q r"
count "${@+"$@"}"
