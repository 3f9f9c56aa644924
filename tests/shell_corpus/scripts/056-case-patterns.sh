for f in README.md src/app.py data/sales.csv config.ini Makefile logs/app.log; do
  case "$f" in
    *.py) echo "$f: python" ;;
    *.md|*.txt) echo "$f: text" ;;
    *.csv) echo "$f: data" ;;
    [Mm]akefile) echo "$f: build" ;;
    *) echo "$f: other" ;;
  esac
done
