parse() {
  local verbose=0 out=
  while [ $# -gt 0 ]; do
    case $1 in
      -v) verbose=1 ;;
      -o) out=$2; shift ;;
      --) shift; break ;;
      -*) echo "bad option: $1"; return 2 ;;
      *) break ;;
    esac
    shift
  done
  echo "verbose=$verbose out=$out rest=$*"
}
parse -v -o file.txt a b
parse -- -v
parse -x; echo "rc=$?"
