yes abc | tr b B | head -n 2
yes | grep -m 2 -n y
yes | grep -q y; echo "q: $?"
yes | cat -n | head -n 2
yes no | head -c 7; echo
seq 3 | tee copy.txt | tail -n 1
cat copy.txt
seq 1 20 | tail -n +18
