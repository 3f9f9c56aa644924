# wait -n, wait on unknown jobs, kill, and a job's stdin.
wait 999999 2>&1; echo "unknown pid $?"
wait %3 2>&1; echo "unknown job $?"
wait -n; echo "wait -n with none $?"
# (wait -n over two jobs is left out: when one ends before wait -n starts,
# bash 5.2 sometimes waits for the other for ever; tests/shell_interp.rs
# covers ours.)
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
