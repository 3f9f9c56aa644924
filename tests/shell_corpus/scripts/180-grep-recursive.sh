grep -r "TODO" src | sort
grep -rn "import" src tests | sort | head -n 5
grep -r --include='*.py' -l "def " . | sort
