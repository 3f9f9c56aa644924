for f in $(find docs -name '*.md' | sort); do
  echo "== $f"
  grep '^#' "$f" | sed 's/^\(#*\) /\1|/' | awk -F'|' '{ printf "%*s%s\n", (length($1)-1)*2, "", $2 }'
done
