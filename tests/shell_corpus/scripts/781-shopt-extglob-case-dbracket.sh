# Extended patterns in case (with extglob) and in [[ == ]] (bash 5.2: always).
for w in app.py test_utils.py README.md x 12a 123 ""; do
  if [[ $w == @(*.py|*.md) ]]; then k=doc; else k=other; fi
  [[ $w != +([0-9]) ]] || k=number
  [[ $w == !(*.*) ]] && k="$k/noext"
  echo "[$w] $k"
done
p='test_@(utils|models).py'
[[ test_utils.py == $p ]] && echo dynamic
[[ test_utils.py == "$p" ]] || echo quoted-literal
[[ '@(a)' == "@(a)" ]] && echo quoted-self
[[ aXb == a?(X|Y)b && ab == a?(X|Y)b ]] && echo optional
[[ abcabc == *(abc) && ! abca == *(abc) ]] && echo repeat
[[ a.b.c == +(?.)c ]] && echo nested
[[ 'a|b' == @(a\|b) ]] && echo escaped-bar
shopt -s extglob
for f in src/app.py data/sales.csv Makefile notes/todo.txt build; do
  case $f in
    *.@(py|sh)) echo "$f: code" ;;
    data/*.+(c|t)sv) echo "$f: table" ;;
    !(*/*)) echo "$f: top" ;;
    *) echo "$f: other" ;;
  esac
done
f() { case $1 in @(a|b)) echo "$1 ext";; *) echo "$1 plain";; esac; }
f a
shopt -u extglob
f a
