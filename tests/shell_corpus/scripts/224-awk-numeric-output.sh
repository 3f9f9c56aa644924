awk 'BEGIN {print 1/3; print 10/2; print 2^10; print 7%3; print -7%3; print 1e6; print 0.1+0.2}'
awk 'BEGIN {x = "3abc"; print x + 1; print "" + 0}'
