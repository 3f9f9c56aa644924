sed -i 's/port = 8080/port = 9090/' config.ini
grep port config.ini
sed -i 's/debug = false/debug = true/' config.ini
grep -c "debug = true" config.ini
