grep -l "def " src/*.py
grep -L "def " src/*.py
grep -rl ERROR logs | sort
