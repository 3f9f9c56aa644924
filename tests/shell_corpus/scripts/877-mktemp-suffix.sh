# mktemp's suffix: --suffix=S (the template must end in X), else what
# follows the template's last X; GNU's messages for the refusals.
f=$(mktemp -p . --suffix=.txt); echo "$f" | grep -c '^\./tmp\.[A-Za-z0-9]\{10\}\.txt$'; test -f "$f" && rm "$f"
mktemp -u XXX.c | grep -c '^[A-Za-z0-9]\{3\}\.c$'
mktemp --suffix=.txt -u fooXXX | grep -c '^foo...\.txt$'
mktemp --suffix=.txt -u fooXXX.c 2>&1; echo "s=$?"
mktemp -u --suffix=x foo 2>&1; echo "s=$?"
mktemp -u aXX.c 2>&1; echo "s=$?"
mktemp -u --suffix=a/b fooXXX 2>&1; echo "s=$?"
mktemp -p /tmp -u abc.XXXX.log | grep -c '^/tmp/abc\.....\.log$'
