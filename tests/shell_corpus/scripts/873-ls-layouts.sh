# ls -X -Q -m -C -x -w -T --format --sort --group-directories-first, laid
# out as GNU ls lays them out for an output that is not a terminal.
mkdir l && cd l
mkdir zdir adir src
touch b.txt a.c c.txt noext 'sp ace' .hid a.tar.gz 'q"uote' b.txt2 src/one src/two.c
ln -s adir ldir; ln -s a.c lfile
ls -X; echo ---
ls -Q; echo ---
ls -m; echo ---
ls --group-directories-first; echo ---
ls -r --group-directories-first; echo ---
ls -F --group-directories-first; echo ---
ls -C; echo ---
COLUMNS=30 ls -C; echo ---
ls -x -w 40; echo ---
ls -Cm; echo; ls -mC; echo ---
ls -w 20 -m; echo ---
ls -1 -C src; echo ---
ls -C -1 src; echo ---
ls -l -1 src | wc -l; echo ---
ls -XC; echo ---
ls -x --format=commas; echo ---
ls --format=foo 2>&1; echo "s=$?"
ls --sort=foo 2>&1; echo "s=$?"
ls -w x 2>&1; echo "s=$?"
ls --sort=extension -r; echo ---
ls -dC src adir zdir; echo ---
ls -C src adir; echo ---
ls -QF; echo ---
ls -w0 -C; echo ---
ls -T 4 -C -w 50; echo ---
ls -T 0 -C -w 50; echo ---
ls -Q -m -w 30
