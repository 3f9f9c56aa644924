grep -rl 'parse_config' src tests | sort > touched.txt
while read -r f; do
  sed -i 's/\bparse_config\b/load_config/g' "$f"
done < touched.txt
cat touched.txt
grep -rn 'load_config' src | sort
