old=$(grep -o 'VERSION = "[0-9.]*"' src/app.py | grep -o '[0-9.]*')
IFS=. read -r major minor patch <<< "$old"
new="$major.$minor.$((patch + 1))"
sed -i "s/VERSION = \"$old\"/VERSION = \"$new\"/" src/app.py
sed -i "s/^Version: $old/Version: $new/" README.md
grep -n "$new" src/app.py README.md
