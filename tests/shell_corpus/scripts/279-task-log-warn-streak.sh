awk '$3 == "WARN" {run++; if (run > best) best = run; next} {run = 0} END {print "longest WARN streak:", best + 0}' logs/app.log
