# /dev/stdin, /dev/stdout and /dev/stderr named as files, as agents write them.
echo b | cat /dev/stdin
printf 'x\ny\n' | grep -c . /dev/stdin
echo c | tee /dev/stdout | wc -l
echo quiet | tee /dev/stderr 2>/dev/null
echo d | diff /dev/stdin -; echo "diff $?"
printf 'a\nb\n' > two.txt
printf 'a\nc\n' | diff two.txt /dev/stdin; echo "diff $?"
echo e | awk '{ print "err: " $0 > "/dev/stderr"; print "out: " $0 > "/dev/stdout" }' 2>/dev/null
seq 3 | head -n 2 /dev/stdin
rm -f two.txt
