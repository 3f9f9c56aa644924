mkdir -p out
for level in INFO WARN ERROR DEBUG; do
  grep " $level " logs/app.log > "out/$level.log"
done
wc -l out/*.log
