# bash -n FILE checks syntax and runs nothing; bash FILE args; bash -c with $0
printf 'echo ran > ran.txt\nif then\n' > bad.sh
bash -n bad.sh 2>/dev/null; echo "bad: $?"; ls ran.txt 2>/dev/null || echo "nothing ran"
printf 'echo "args: $# $1 $2"\nexit 3\n' > ok.sh
bash -n ok.sh; echo "ok: $?"
bash ok.sh p q; echo "status $?"
bash -c 'echo "$0 $1 $2"' name a b
sh -c 'echo $#' x 1 2 3
bash -n -c 'echo never; fi' 2>/dev/null; echo "c: $?"
rm bad.sh ok.sh
