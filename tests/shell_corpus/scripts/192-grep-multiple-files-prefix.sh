grep -c def src/*.py
grep "Item" src/*.py | head -n 3
grep -n "class" src/models.py tests/test_models.py
