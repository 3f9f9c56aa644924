echo "cat category concat cat." | grep -o -w cat
grep -w port config.ini
grep -x 'add a CLI' notes/ideas.txt
grep -cx '' README.md
