# shopt -s globstar: ** matches zero or more directories.
echo before **/*.md
shopt -s globstar
echo **/*.py
echo **/
echo docs/**
echo docs/**/
echo docs/**/*.md
echo src/**/helpers.py
echo **/old/*
echo **.md
echo x**/y
for f in **/*.csv; do echo "csv: $f"; done
n=0; for f in **; do n=$((n+1)); done; echo "entries: $n"
shopt -s dotglob
echo **/.*
echo build/**
shopt -u dotglob
shopt -s extglob
echo **/@(app|helpers).py
