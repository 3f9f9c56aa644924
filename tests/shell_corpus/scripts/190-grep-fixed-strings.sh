grep -F '[server]' config.ini
grep -F 'a.b' <<< "axb"; echo "status $?"
grep 'a.b' <<< "axb"
grep -F -c '*' README.md
