find src tests -name '*.py' | sort | xargs wc -l | tail -1
find src -name '*.py' -print0 2>/dev/null | xargs -0 grep -l 'def' | sort
