grep -E '^[a-z]+:' Makefile | cut -d: -f1 | tr '\n' ' '; echo
while IFS='==' read -r pkg ver; do echo "$pkg -> ${ver#=}"; done < requirements.txt
cut -d= -f1 requirements.txt | sort | tr '\n' ','; echo
