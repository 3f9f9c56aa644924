grep -h "^def " src/*.py | sort
grep -H "stock" src/models.py
