# jobs lists the running jobs as bash prints them without job control.
sleep 5 & sleep 5 &
jobs
jobs -p | wc -l
jobs | wc -l
kill %1 %2
wait
echo "after wait: [$(jobs)]"
{ sleep 5; echo x; } &
(sleep 5; false) &
grep -c . logs/app.log > /dev/null &
wait %3
jobs
jobs %1
jobs %9 2>&1; echo "jobs status $?"
kill %1 %2
wait
echo done
