cat README.md missing.md 2>&1 | grep -c missing
ls src nosuch 2>&1 >/dev/null | wc -l
{ echo out; echo err >&2; } 2>&1 | sort
