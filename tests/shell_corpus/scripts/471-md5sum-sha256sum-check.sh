# Checksums of the data files, then a check after one changes.
md5sum data/users.csv data/sales.csv
sha1sum config.ini
sha256sum data/*.csv > build/SHA256SUMS
cat build/SHA256SUMS
sha256sum -c build/SHA256SUMS; echo "check: $?"
echo "9,zed,zed@example.com,dev" >> data/users.csv
sha256sum -c build/SHA256SUMS 2>&1; echo "after edit: $?"
sha256sum -c --quiet build/SHA256SUMS 2>&1; echo "quiet: $?"
echo hello | md5sum
printf 'abc' | sha512sum
md5sum --tag README.md
md5sum missing.txt 2>&1; echo "missing: $?"
echo "not a checksum" | md5sum -c 2>&1; echo "garbage: $?"
rm data/sales.csv
sha256sum -c build/SHA256SUMS 2>&1 | sort; echo "gone: $?"
