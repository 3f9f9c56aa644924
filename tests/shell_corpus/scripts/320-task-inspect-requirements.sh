while IFS='==' read -r pkg ver; do
  echo "$pkg -> ${ver#=}"
done < requirements.txt
