for f in src/*.py; do
  [ -s "$f" ] || continue
  { echo "# SPDX-License-Identifier: MIT"; cat "$f"; } > "$f.tmp" && mv "$f.tmp" "$f"
done
head -n 1 src/app.py
grep -L SPDX src/*.py
