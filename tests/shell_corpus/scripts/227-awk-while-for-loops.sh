awk 'BEGIN {for (i = 1; i <= 3; i++) printf "%d ", i*i; print ""; i = 5; while (i > 0) { i -= 2; printf "%d ", i } print ""}'
