f=tests/test_utils.py
[[ $f == tests/* ]] && echo "in tests"
[[ $f == *.py && -f $f ]] && echo "py file exists"
[[ $f != *.md ]] && echo "not md"
[[ -d src/lib && ! -e src/nope ]] && echo "dirs ok"
[[ abc < abd ]] && echo "lexical"
[[ 10 -gt 9 ]] && echo "numeric"
