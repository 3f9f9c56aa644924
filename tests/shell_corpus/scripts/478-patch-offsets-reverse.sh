# A correct diff applied, re-applied (detected), reversed, and applied at
# an offset after the file moved down.
cat > build/cfg.patch <<'P'
--- a/src/utils.py
+++ b/src/utils.py
@@ -3,6 +3,7 @@
 
 
 def parse_config(path):
+    """Read an ini file into a dict of sections."""
     parser = configparser.ConfigParser()
     parser.read(path)
     return {s: dict(parser[s]) for s in parser.sections()}
P
patch -p1 < build/cfg.patch; echo "apply $?"
sed -n 5,7p src/utils.py
patch -p1 < build/cfg.patch; echo "again $?"; rm -f src/utils.py.rej
patch -p1 -R < build/cfg.patch; echo "reverse $?"
grep -c 'Read an ini' src/utils.py
{ printf '# one\n# two\n'; cat src/utils.py; } > build/u && mv build/u src/utils.py
patch -p1 --dry-run -i build/cfg.patch; echo "dry $?"
patch -p1 -i build/cfg.patch; echo "offset $?"
sed -n 7,9p src/utils.py
cmp -s src/utils.py.orig src/utils.py || echo "backup differs"
cd src && patch < ../build/cfg.patch; echo "p0 $?"; cd ..
patch -s -p1 -R < build/cfg.patch; echo "silent $?"
tail -n +3 src/utils.py | head -6
