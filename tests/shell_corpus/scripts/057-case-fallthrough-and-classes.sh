for x in 7 a Z - 42 ""; do
  case $x in
    [0-9]) echo "$x digit" ;;
    [0-9]*) echo "$x number" ;;
    [a-z]) echo "$x lower" ;;
    [[:upper:]]) echo "$x upper" ;;
    "") echo "empty" ;;
    *) echo "$x other" ;;
  esac
done
