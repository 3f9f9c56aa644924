printf 'node_modules/\n*.log\n.env\n' > new.ignore
printf '*.pyc\n.env\n' > base.ignore
cat base.ignore new.ignore | sort -u > merged.ignore
cat merged.ignore
