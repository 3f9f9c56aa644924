check() {
  case $1 in
    *error*) echo "has error" ;;&
    *timeout*) echo "has timeout" ;;&
    *) echo "done: $1" ;;
  esac
}
check "error timeout"
check "plain"
