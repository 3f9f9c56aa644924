# grep -A/-B/-C over several files: GNU sets each file's first group off
# from the previous file's output with `--`, as between groups in one file.
grep -n -C1 'def ' src/utils.py src/models.py | head -20
echo "---- -A"
grep -A1 -H import src/app.py src/utils.py
echo "---- -r"
grep -r -B1 'return' src/lib | sort | head -5
echo "---- one file"
grep -C1 import src/utils.py
