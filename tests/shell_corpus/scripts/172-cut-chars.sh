cut -c1-10 logs/app.log | sort -u
cut -c12-19 logs/app.log | head -n 2
echo "abcdefgh" | cut -c2,4,6-
echo "a:b:c" | cut -d: -f5
