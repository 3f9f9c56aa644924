# Descriptors 3-9 opened with exec reach background jobs.
exec 3> jobs.txt
{ echo from-job >&3; } &
wait
echo after-wait >&3
( echo from-subshell-job >&3 ) &
wait $!
echo "job status $?"
exec 3>&-
cat jobs.txt
exec 4< config.ini
{ read -r line <&4; echo "job read: $line"; } &
wait
exec 4<&-
exec 5>&1
{ echo via5 >&5; } &
wait
exec 5>&-
echo done
