mkdir -p build/levels
for lvl in ERROR WARN DEBUG; do
  grep " $lvl " logs/app.log > "build/levels/${lvl,,}.log"
done
wc -l build/levels/*.log
