f=CONTRIBUTING.md
if [ ! -f "$f" ]; then
  printf '# Contributing\n\nRun `make test` before sending a patch.\n' > "$f"
  echo "created $f"
fi
[ -f "$f" ] && echo "exists: $(head -n 1 "$f")"
