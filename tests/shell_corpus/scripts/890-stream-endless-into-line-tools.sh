# endless writers into nl, fold, paste, rev, base64: each ends once head has its lines
yes | nl | head -n 2; echo "nl: ${PIPESTATUS[*]}"
yes | nl -ba -w3 -s: logs/old/app.log.1 - | tail -n +1 | head -n 3
yes abcdef | fold -w 4 | head -n 2; echo "fold: ${PIPESTATUS[*]}"
yes | tr -d '\n' | fold -w 5 | head -n 2
yes 'ab cd ef' | fold -s -w 4 | head -n 4
yes | paste - - | head -n 2; echo "paste: ${PIPESTATUS[*]}"
yes | paste -d ',;' - config.ini - | head -n 3
yes | paste -s | head -c 9; echo
yes | paste -s -d '' - | head -c 5; echo
yes abc | rev | head -n 1; echo "rev: ${PIPESTATUS[*]}"
yes | base64 | head -n 1; echo "base64: ${PIPESTATUS[*]}"
yes | base64 -w 10 | base64 -d | head -n 2
yes | nl | fold -w 3 | paste - - - | rev | head -n 2
