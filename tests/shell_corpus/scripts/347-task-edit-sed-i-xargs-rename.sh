grep -rl 'format_price' src tests | sort | xargs sed -i 's/format_price/render_price/g'
grep -rn 'render_price' src tests | sort
grep -rc 'format_price' src tests | sort
