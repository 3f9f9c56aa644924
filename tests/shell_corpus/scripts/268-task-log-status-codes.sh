awk '{print $(NF-1)}' logs/access.log | sort | uniq -c | sort -k2n
