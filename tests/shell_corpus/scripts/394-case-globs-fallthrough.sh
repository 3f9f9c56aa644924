for f in app.py test_utils.py README.md data.csv Makefile x.tar.gz; do
  case $f in
    test_*.py) echo -n "$f: test " ;&
    *.py) echo "python" ;;
    *.md|*.txt) echo "$f: docs" ;;
    *.tar.*) echo "$f: archive" ;;
    [A-Z]*) echo "$f: capital" ;;
    *) echo "$f: other" ;;
  esac
done
