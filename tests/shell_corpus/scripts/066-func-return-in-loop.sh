find_first_error() {
  local line
  while read -r line; do
    case $line in *ERROR*) echo "$line"; return 0 ;; esac
  done < logs/app.log
  return 1
}
find_first_error | cut -c1-40
