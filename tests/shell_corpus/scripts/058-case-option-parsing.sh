set -- -v --name=demo -o out.txt extra
while [ $# -gt 0 ]; do
  case $1 in
    -v) echo "verbose" ;;
    --name=*) echo "name ${1#*=}" ;;
    -o) shift; echo "output $1" ;;
    *) echo "positional $1" ;;
  esac
  shift
done
