count_args() { echo "$# args: $*"; }
count_args
count_args a "b c" d
wrapper() { count_args "$@"; }
wrapper 1 "2 3"
