if ! grep -q "^\[cache\]" config.ini; then
  echo "error: no [cache] section in config.ini" >&2
  exit 3
fi
echo "never"
