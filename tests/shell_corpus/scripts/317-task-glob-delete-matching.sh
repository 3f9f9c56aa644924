touch tmp_a.pyc tmp_b.pyc keep.py
for f in *.pyc; do rm "$f"; done
ls *.py*
