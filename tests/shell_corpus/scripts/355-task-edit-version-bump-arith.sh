v=$(grep -o 'VERSION = "[0-9.]*"' src/app.py | grep -o '[0-9][0-9.]*')
IFS=. read -r major minor patch <<< "$v"
new="$major.$minor.$((patch + 1))"
sed -i "s/VERSION = \"$v\"/VERSION = \"$new\"/" src/app.py
echo "$v -> $new"
grep VERSION src/app.py
