cat ~/README.md | head -n 1
ls ~/src/app.py > /dev/null && echo found
echo "~ stays in quotes"
x=~/config.ini
head -n 2 "$x"
