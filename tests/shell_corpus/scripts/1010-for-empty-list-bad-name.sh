# for x in ; loops over nothing (not over "$@"); a bad loop variable name
# is an error with status 1.
set -- 1 2 3
for i in ; do echo "never $i"; done
echo "empty list done: $?"
for i; do echo "positional $i"; done
for - in a b; do echo never; done
echo "bad name: $?"
