grep -rn -E 'TODO|FIXME' --include='*.py' --include='*.md' --include='*.txt' . | sort | cut -d: -f1 | uniq -c
grep -rho -E '(TODO|FIXME)' . | sort | uniq -c
