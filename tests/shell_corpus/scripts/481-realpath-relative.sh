# Relative paths between directories.
realpath --relative-to=src src/lib/helpers.py
realpath --relative-to=src/lib src
realpath --relative-to=docs/guide src/app.py
realpath --relative-to=. data/users.csv logs
realpath --relative-base=. src/lib/helpers.py data/users.csv
realpath --relative-to=src --relative-base=. src/app.py docs
realpath --relative-to=nowhere/deeper src 2>&1; echo "st $?"
cd src && realpath --relative-to=.. lib/helpers.py
