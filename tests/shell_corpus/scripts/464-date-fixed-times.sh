# date on fixed times (UTC): formats, epoch seconds, day arithmetic.
date -u -d @0
date -u -d @1700000000 '+%Y-%m-%d %H:%M:%S'
date -u -d '2024-03-01' +%s
date -u -d '2024-03-01 12:30' '+%A %d %B %Y, %I:%M %p'
date -u -d @86400 -I
date -u -d @1700000000 -Iseconds
date -u -d @1700000000 -R
start=$(date -u -d 2024-02-27 +%s)
end=$(date -u -d 2024-03-02 +%s)
echo "days: $(( (end - start) / 86400 ))"
while IFS=, read -r day rest; do
    [ "$day" = date ] && continue
    echo "$day is a $(date -u -d "$day" +%a)"
done < data/sales.csv | head -3
date -u -d 'not a date' 2>&1; echo "status $?"
