# split -l, -b and -C read their input in pieces and write each file as it fills
mkdir out && cd out
seq 1 10 | split -l 3; for f in x*; do printf '%s: ' $f; tr '\n' ' ' < $f; echo; done; rm -f x*
printf 'abcdefghij\nklm' | split -b 4 --verbose - p_; cat p_aa p_ab p_ac p_ad; echo; rm -f p_*
printf 'one\ntwo two two\nthree\n\nfour' | split -C 6 -d; for f in x*; do printf '%s=[%s] ' $f "$(cat $f)"; done; echo; rm -f x*
seq 1 100000 > ../big; split -l 30000 -a 1 ../big s.; wc -l s.*; cat s.* | cmp - ../big && echo same; rm -f s.*
split -b 100000 ../big b.; ls b.* | wc -l; wc -c b.af; cat b.* | cmp - ../big && echo same; rm -f b.*
split -C 65536 ../big c.; wc -c c.* | tail -n 3; tail -c 8 c.aa; cat c.* | cmp - ../big && echo same; rm -f c.*
yes 0123456789 | head -n 30000 | tr -d '\n' > ../long; split -C 100000 ../long L; wc -c L*; rm -f L*
seq 1 30 | split -l 2 -a 1 -; echo "exhausted: $?"; ls | tr '\n' ' '; echo; rm -f x*
split nope 2>&1; echo "missing: $?"; split ../data 2>&1; split -n 2 ../data 2>&1; echo "dir: $?"; : | split; ls | wc -l; seq 1 5 | split -l 2 -d --additional-suffix=.txt - n; ls
