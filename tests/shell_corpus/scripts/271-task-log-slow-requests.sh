grep -E 'request [A-Z]+ [^ ]+ [0-9]+ [0-9]+ms' logs/app.log | awk '{ms = $NF; sub(/ms/, "", ms); if (ms + 0 > 800) print $2, $6, $7, ms}'
