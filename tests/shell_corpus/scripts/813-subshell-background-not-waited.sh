# A subshell (or a child bash) does not wait for the background jobs it
# started: it ends at once, and the jobs are not the parent shell's.
( sleep 60 > /dev/null 2>&1 & )
echo "subshell returned"
( sleep 60 > /dev/null 2>&1 & [ -n "$!" ] && echo "inner job started" )
bash -c 'sleep 60 > /dev/null 2>&1 &'
echo "child bash returned $?"
{ ( sleep 60 > /dev/null 2>&1 & ); echo "in job"; } &
wait $!
echo "job status $?"
wait
echo "wait status $?"
jobs | wc -l
x=$(sleep 1 & echo "substitution")
echo "$x"
