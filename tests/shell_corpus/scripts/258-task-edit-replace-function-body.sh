start=$(grep -n '^def format_price' src/utils.py | cut -d: -f1)
end=$((start + 2))
sed -i "${start},${end}d" src/utils.py
cat >> src/utils.py <<'EOF2'

def format_price(value):
    return f"{value:.2f} EUR"
EOF2
grep -A 1 'def format_price' src/utils.py
python_lines=$(wc -l < src/utils.py)
echo "utils.py now has $python_lines lines"
