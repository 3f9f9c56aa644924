require_file() {
  if [ ! -f "$1" ]; then
    echo "missing required file: $1" >&2
    return 66
  fi
  echo "ok: $1"
}
require_file config.ini
require_file secrets.ini || echo "code $?"
