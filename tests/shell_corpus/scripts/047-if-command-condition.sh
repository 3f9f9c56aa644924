if grep -q "debug = false" config.ini; then
  echo "debug is off"
fi
if cd nosuchdir 2>/dev/null; then echo "cd ok"; else echo "cd failed"; fi
if test -d src && test -f src/app.py; then echo "layout ok"; fi
