# ls -v and --sort=version: GNU's natural order of version numbers.
mkdir v && cd v && touch a10 a9 a1.2 a1.10 b2 b10.txt b9.txt 'a~1' a
ls -v; echo ---
ls -vr; echo ---
ls --sort=version -C -w 30; echo ---
ls -v1 --group-directories-first
