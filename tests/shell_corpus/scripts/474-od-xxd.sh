# Look at bytes: od and xxd, and xxd back to bytes.
printf 'hi\tthere\n\001\377' > build/bytes
od -c build/bytes
od -An -tx1 build/bytes
od -A d -t d1 build/bytes
od -t o1 -N 4 build/bytes
od -x build/bytes
od -j 3 -c build/bytes
head -c 40 README.md | od -c
printf '%040d' 0 | od -c
xxd build/bytes
xxd -p config.ini | head -2
xxd -l 16 -c 8 README.md
xxd -s 4 -l 6 build/bytes
xxd -g 1 -u build/bytes
xxd config.ini | xxd -r > build/config.copy && cmp build/config.copy config.ini && echo "xxd -r roundtrip"
xxd -p data/users.csv | xxd -r -p | diff - data/users.csv && echo "plain roundtrip"
echo 68656c6c6f0a | xxd -r -p
xxd -i build/bytes
