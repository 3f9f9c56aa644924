name=inventory
cat <<EOT
Project: $name
Lines: $(wc -l < data/sales.csv)
Escaped: \$name
EOT
