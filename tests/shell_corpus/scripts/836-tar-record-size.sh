# tar writes whole 10240-byte records, as GNU tar does.
tar cf build/one.tar config.ini
wc -c < build/one.tar
tar tf build/one.tar
tar cf build/two.tar data src
wc -c < build/two.tar
tar tf build/two.tar | sort | head -3
mkdir build/out && tar xf build/two.tar -C build/out && ls build/out | sort
rm build/one.tar build/two.tar
