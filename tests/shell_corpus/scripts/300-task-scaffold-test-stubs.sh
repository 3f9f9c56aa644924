mkdir -p tests/generated
for f in src/*.py; do
  mod=$(basename "$f" .py)
  [ "$mod" = "__init__" ] && continue
  echo "import src.$mod" > "tests/generated/test_$mod.py"
done
ls tests/generated
cat tests/generated/test_utils.py
