mv notes/ideas.txt notes/backlog.txt
ls notes
mv README.md docs/
ls docs
mkdir archive
mv logs/old archive/
ls -R archive
