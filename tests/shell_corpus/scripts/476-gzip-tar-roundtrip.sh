# Compress logs, pack a tree, unpack it elsewhere; archives are removed at
# the end (their bytes depend on the compressor and on times).
gzip -k logs/app.log && ls logs
zcat logs/app.log.gz | head -2
gunzip -c logs/app.log.gz | wc -l
gzip -t logs/app.log.gz && echo "integrity ok"
gzip logs/app.log 2>&1; echo "exists: $?"
rm logs/app.log && gunzip logs/app.log.gz && wc -l logs/app.log
echo hello | gzip | gunzip
gzip nope.txt 2>&1; echo "missing: $?"
gunzip README.md 2>&1; echo "suffix: $?"
echo junk > build/junk.gz; gunzip build/junk.gz 2>&1; echo "junk: $?"; rm build/junk.gz
gzip docs 2>&1; echo "dir: $?"
gzip -r docs && find docs -type f | sort && gunzip -r docs && find docs -type f | sort
tar -czf build/src.tgz src tests
tar -tzf build/src.tgz | sort
mkdir restore && tar -xzf build/src.tgz -C restore && diff -r src restore/src && echo "tree identical"
tar -cvf build/data.tar data | sort
tar -xf build/data.tar -O data/users.csv | head -2
tar -tf build/data.tar data/nothing 2>&1; echo "not found: $?"
tar xf build/data.tar --strip-components=1 -C restore && ls restore
tar -xf missing.tar 2>&1; echo "no archive: $?"
tar -tf README.md 2>&1; echo "not tar: $?"
tar 2>&1; echo "no mode: $?"
rm build/src.tgz build/data.tar
