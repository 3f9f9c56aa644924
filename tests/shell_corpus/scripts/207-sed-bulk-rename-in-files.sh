for f in src/*.py tests/*.py; do
  sed -i 's/format_price/render_price/g' "$f"
done
grep -rl render_price src tests | sort
grep -c render_price src/utils.py
