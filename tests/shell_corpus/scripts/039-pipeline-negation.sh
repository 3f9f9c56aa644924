if ! grep -q "nosuch" README.md; then echo "not found, as expected"; fi
! true
echo "status of ! true: $?"
! false && echo "negated false is true"
