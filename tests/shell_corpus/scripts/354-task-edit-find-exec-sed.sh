find . -name '*.py' -exec sed -i 's/^"""\(.*\)"""$/# \1/' {} +
grep -rh '^# ' src tests | sort
