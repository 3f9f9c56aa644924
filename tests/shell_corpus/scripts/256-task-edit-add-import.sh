file=src/utils.py
if ! grep -q '^import os' "$file"; then
  sed -i '2a import os' "$file"
fi
head -n 4 "$file"
