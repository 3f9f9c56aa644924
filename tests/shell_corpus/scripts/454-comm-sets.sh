# comm on sorted lists: common and unique lines, columns suppressed,
# delimiters, totals, and the unsorted-input warnings.
cut -d, -f2 data/users.csv | tail -n +2 | sort > all-names
head -n 4 all-names > some-names
echo zed >> some-names
comm all-names some-names
comm -12 all-names some-names
comm -13 all-names some-names
comm -3 --output-delimiter=' | ' all-names some-names
comm --total all-names some-names
printf 'b\na\nc\n' > unsorted
comm unsorted some-names 2>&1; echo "default: $?"
comm --check-order unsorted some-names 2>&1; echo "check: $?"
comm --nocheck-order unsorted some-names; echo "nocheck: $?"
rm all-names some-names unsorted
