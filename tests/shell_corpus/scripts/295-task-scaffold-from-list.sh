while read -r comp; do
  mkdir -p "components/$comp"
  echo "export const name = '$comp';" > "components/$comp/index.js"
done <<'EOF2'
button
modal
navbar
EOF2
ls components
cat components/modal/index.js
