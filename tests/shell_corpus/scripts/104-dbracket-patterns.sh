f=src/app.py
[[ $f == *.py ]] && echo "python by pattern"
[[ $f == "*.py" ]] || echo "quoted pattern is literal"
[[ $f != *.md ]] && echo "not markdown"
[[ -f $f && -s $f ]] && echo "file and nonempty"
[[ -z $unset || $f = src* ]] && echo "or works"
