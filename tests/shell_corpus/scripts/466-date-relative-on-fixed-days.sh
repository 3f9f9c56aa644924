# Relative dates from fixed days: reports for the previous day, week, month.
for base in 2024-03-01 2024-01-31 2023-12-31; do
    echo "$base: yesterday=$(date -u -d "$base yesterday" +%F) next-month=$(date -u -d "$base 1 month" +%F)"
done
date -u -d '2024-03-01 12:00 2 days ago' '+%F %T'
date -u -d '2024-03-01 1 hour 30 minutes ago' '+%F %T'
date -u -d '2024-03-01 3 weeks ago' +%F
date -u -d '2024-03-01 -1 week +3 hours' '+%F %T'
stamp=$(date -u -d '2024-03-14 10:00' +%Y%m%d-%H%M)
mkdir -p build/backup-$stamp && ls build
