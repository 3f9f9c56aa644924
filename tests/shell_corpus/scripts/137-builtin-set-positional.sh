set -- z y x
echo "$@"
set -- "$@" w
echo "$# $4"
set --
echo "now $#"
