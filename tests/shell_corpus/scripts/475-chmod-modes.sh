# Make a script executable, check it, and report mode changes.
[ -x scripts/deploy.sh ] && echo "already executable" || echo "not executable"
chmod +x scripts/deploy.sh && [ -x scripts/deploy.sh ] && echo "now executable"
chmod -v 640 config.ini
chmod -v u=rw,g=r,o= config.ini
chmod -c 644 config.ini
chmod -c 644 config.ini
chmod -v a-x,u+x scripts/deploy.sh
chmod -R go-w src && echo "recursive ok"
find . -type f -perm -u+x | sort
chmod 755 build && chmod -v +t build
chmod xyz config.ini 2>&1; echo "bad mode: $?"
chmod 644 2>&1; echo "no file: $?"
chmod 644 missing.txt 2>&1; echo "missing: $?"
chmod 888 config.ini 2>&1; echo "not octal: $?"
chmod -v --reference=config.ini README.md
chmod 000 notes/todo.txt; chmod -v +r notes/todo.txt
