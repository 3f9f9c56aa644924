n=$(grep -cE 'request [A-Z]+ [^ ]+ 5[0-9][0-9] ' logs/app.log)
total=$(grep -c 'request ' logs/app.log)
echo "5xx: $n of $total requests"
echo "rate: $((n * 100 / total))%"
