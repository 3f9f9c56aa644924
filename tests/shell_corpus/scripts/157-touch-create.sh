touch new.txt
touch src/__init__.py
touch a.txt b.txt c.txt
ls *.txt
wc -c < new.txt
