# grep's output options as GNU grep 3.8 has them: -T, --label, -Z, -z, -d,
# --binary-files, group separators, conflicting matchers, -m with -c/-A.
mkdir g && cd g
printf 'foo\nbar\nfoo bar\nBaz 42\n' > a.txt
printf 'x\nfoo\n\tindented\n' > b.txt
printf 'rec1\0rec two\nline\0foo3\0' > nul.bin
printf 'a\nb\nc\nd\ne\n' > l
mkdir -p src/sub && printf 'foo\n' > src/sub/x.c && printf 'foo\n' > src/y.c
grep -T foo a.txt b.txt; echo "s=$?"
grep -Tn foo a.txt b.txt | od -c
grep -Tnb foo a.txt
printf 'b\n\nb\n' | grep -Tn -v x | od -c
printf 'foo\n' | grep --label=LBL -H foo
printf 'foo\n' | grep --label=LBL -c foo - a.txt
grep -Z foo a.txt b.txt | od -c
grep -lZ foo a.txt b.txt | od -c
grep -cZ foo a.txt b.txt | od -c
grep -LZ zz a.txt | od -c
grep -z rec nul.bin | od -c
grep -zc o nul.bin
grep -z '^line' nul.bin | od -c
grep -z 'two.line' nul.bin | od -c
grep -zo 'o[0-9]$' nul.bin | od -c
grep -zl foo nul.bin | od -c
grep -F -G a a.txt 2>&1; echo "s=$?"
grep -E -E -c a a.txt
grep -d skip foo . a.txt; echo "s=$?"
grep -d read foo . 2>&1; echo "s=$?"
grep -d recurse foo src | sort
grep -r -d skip foo .; echo "s=$?"
grep -d foo x a.txt 2>&1; echo "s=$?"
grep --binary-files=text -c rec nul.bin
grep --binary-files=without-match rec nul.bin; echo "s=$?"
grep --binary-files=foo x a.txt 2>&1; echo "s=$?"
grep -D foo x a.txt 2>&1; echo "s=$?"
grep --group-separator=XX -A0 -e b -e d l
grep --no-group-separator -A0 -e b -e d l
grep -u a l 2>&1; echo "s=$?"
grep --color=never foo a.txt
grep --colour=auto -c foo a.txt
grep -m1 -c foo a.txt
grep -m1 -A1 foo a.txt
grep -m2 -n -A1 foo a.txt
grep -r --exclude-dir=sub foo src
grep -s foo nope a.txt; echo "s=$?"
grep -q foo nope a.txt 2>&1; echo "s=$?"
grep -q zzz nope a.txt 2>&1; echo "s=$?"
grep -qs zzz nope; echo "s=$?"
