cd data
wc -l users.csv
cd ../notes
cat ideas.txt | head -n 1
cd
ls README.md
