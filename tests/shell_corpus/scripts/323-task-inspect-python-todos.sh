grep -rn -E 'TODO|FIXME' src | sort | sed 's/^\([^:]*\):\([0-9]*\):[[:space:]]*#[[:space:]]*/\1 line \2: /'
