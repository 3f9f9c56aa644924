while read -r line; do
  if [[ $line =~ \[worker-([0-9]+)\].*\ ([0-9]{3})\ ([0-9]+)ms$ ]]; then
    echo "w${BASH_REMATCH[1]} ${BASH_REMATCH[2]} ${BASH_REMATCH[3]}"
  fi
done < <(grep -E "(ERROR|request)" logs/app.log) | head -6
