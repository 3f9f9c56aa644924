# Descriptors 3-9 opened with exec reach every stage of a pipeline, not
# only the last.
exec 3> log.txt
echo one >&3 | cat
{ echo two >&3; echo to-stdout; } | tr a-z A-Z
printf 'x\n' | { echo three >&3; cat; }
exec 3>&-
cat log.txt
exec 4< config.ini
head -n 1 <&4 | tr a-z A-Z
exec 4<&-
exec 5>&1
echo via5 >&5 | cat
exec 5>&-
echo done
