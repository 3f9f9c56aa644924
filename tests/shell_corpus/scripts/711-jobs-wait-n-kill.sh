# wait -n, wait on unknown jobs, kill, and a job's stdin.
wait 999999 2>&1; echo "unknown pid $?"
wait %3 2>&1; echo "unknown job $?"
wait -n; echo "wait -n with none $?"
(while [ ! -f gate ]; do sleep 0.01; done; exit 4) &
(exit 5) &
wait -n; echo "first done $?"
touch gate
wait -n; echo "second done $?"
wait -n; echo "none left $?"
rm gate
sleep 5 & kill $!; wait $!; echo "killed $?"
sleep 5 & kill -9 %1; wait %1 2>/dev/null; echo "killed -9 $?"
sleep 5 & kill -s HUP %%; wait; echo "wait after kill $?"
kill %7 2>&1; echo "kill unknown $?"
# Without job control a job reads /dev/null, unless stdin is piped or redirected.
cat &
wait
echo piped | { cat & wait; }
{ cat & wait; } <<< "here string"
set -e
false &
wait $! || echo "job failed, set -e not triggered by &"
echo end
