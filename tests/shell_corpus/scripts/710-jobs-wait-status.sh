# Background jobs: they run at once, `wait` collects them, `$!` names them.
mkdir -p out
for i in 1 2 3; do
  (sleep 0.0$i; echo "job $i" > out/$i.txt) &
done
wait
echo "wait: $?"
cat out/*.txt
grep -c INFO logs/app.log > out/count.txt &
p=$!
wait $p; echo "grep status $? count $(cat out/count.txt)"
(exit 3) & p=$!
wait $p; echo "exit status $?"
wait $p; echo "again $?"
false & true & wait; echo "plain wait $?"
[ -n "$!" ] && echo "bang is set"
sleep 0.01 & a=$!; sleep 0.01 & b=$!
[ "$a" != "$b" ] && echo "distinct pids"
wait $a $b; echo "both $?"
# The job runs while the shell goes on: it waits for a file made later.
(while [ ! -f out/go ]; do sleep 0.01; done; echo "saw go") &
echo "before go"
touch out/go
wait
x=1; { x=2; echo "job sees $x"; } & wait; echo "shell keeps $x"
