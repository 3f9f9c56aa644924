# reading a few lines of an endless command, then closing it
awk 'BEGIN { while (("yes" | getline l) > 0) if (++n >= 3) break; close("yes"); print n, l }'
awk 'BEGIN { while (("seq 1 1000000" | getline x) > 0) { s += x; if (x == 10) break }; close("seq 1 1000000"); print s }'
echo status $?
