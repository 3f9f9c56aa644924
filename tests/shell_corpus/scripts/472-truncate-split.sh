# Cut a log down to size and split it into pieces.
truncate -s 100 logs/app.log && wc -c logs/app.log
truncate -s +28 logs/app.log && wc -c logs/app.log
truncate -s -8 logs/app.log && wc -c logs/app.log
truncate -s 1K build/blank && wc -c build/blank
truncate -s '<10' build/blank && wc -c < build/blank
truncate -c -s 5 build/never; ls build
truncate -s 5 2>&1; echo "no file: $?"
truncate -s 3x build/blank 2>&1; echo "bad size: $?"
mkdir parts && cd parts
split -l 60 ../logs/access.log && ls && wc -l xa* | tail -1
split -b 500 -d ../data/sales.csv sales_ && ls sales_* && cat sales_01 | head -2
split -n l/3 --additional-suffix=.csv ../data/users.csv users_ && wc -l users_*
seq 1 30 | split -l 1 -a 1 2>&1; echo "exhausted: $?"
ls | wc -l
