tail -n +2 data/sales.csv | while IFS=, read -r d r p u pr; do
  case $r in
    north|south) echo "$r:$p:$u" ;;
  esac
done | sort -t: -k3,3nr | head -5
