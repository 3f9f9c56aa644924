# An agent edits a config file and reviews its change with diff: normal
# format, unified with labels, brief, and the exit status in an if.
cp config.ini config.ini.orig
sed -i 's/^port = .*/port = 9090/; $a timeout = 30' config.ini
diff config.ini.orig config.ini; echo "normal: $?"
diff -u --label a/config.ini --label b/config.ini config.ini.orig config.ini; echo "unified: $?"
diff -U1 config.ini.orig config.ini | tail -n +3
diff -q config.ini.orig config.ini; echo "brief: $?"
if diff -q config.ini config.ini >/dev/null; then echo "same file is unchanged"; fi
diff config.ini nope.ini 2>&1; echo "missing: $?"
rm config.ini.orig
