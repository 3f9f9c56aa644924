set -- alpha "beta gamma" delta
echo "count: $#"
echo "first: $1, second: $2"
for a in "$@"; do echo "arg <$a>"; done
for a in $*; do echo "word <$a>"; done
echo "joined: $*"
