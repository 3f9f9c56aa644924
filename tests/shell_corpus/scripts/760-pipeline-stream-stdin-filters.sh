# sed, awk, uniq and cut read stdin as it comes: q, exit and a closed pipe stop an endless writer
yes | sed 3q; echo "${PIPESTATUS[@]}"
yes | awk 'NR==2{exit}'; echo "${PIPESTATUS[@]}"
yes | cut -c1 | head -2; echo "${PIPESTATUS[@]}"
seq 1 100000000 | uniq | head -n 1; echo "${PIPESTATUS[@]}"
seq 1 100000000 | sed -n '3{p;q}'; echo "${PIPESTATUS[@]}"
seq 1 100000000 | awk '{ s += $1 } NR == 1000 { print s; exit }'; echo "${PIPESTATUS[@]}"
yes abc | awk '{ getline x; n++ } n == 3 { print NR, x; exit }'; echo "${PIPESTATUS[@]}"
yes | sed -n '2{=;q5}'; echo "${PIPESTATUS[@]}"
seq 5 | sed -n '$p'; seq 5 | sed 'N;N;s/\n/+/g'; printf 'a\nb' | sed '$a\end'
printf 'x y\n\nz\n' | awk 'BEGIN { RS = "" } { print NR ": " $0 }'
printf 'a\na\nb\n' | uniq -c; printf 'k:1\nk:2\n' | cut -d: -f2
