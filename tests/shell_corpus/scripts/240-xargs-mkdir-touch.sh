printf 'alpha\nbeta\ngamma\n' | xargs mkdir -p
printf 'alpha/a.txt beta/b.txt' | xargs touch
ls -R alpha beta gamma
