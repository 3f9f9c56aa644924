grep -n TODO src/app.py
grep -n -m 2 "def " src/utils.py
grep -n "^\[" config.ini
