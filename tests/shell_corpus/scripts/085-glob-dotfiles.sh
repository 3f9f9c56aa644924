echo *
echo .[!.]*
ls -a | head -n 4
