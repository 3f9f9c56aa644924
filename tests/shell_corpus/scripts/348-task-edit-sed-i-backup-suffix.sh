sed -i.bak 's/^port = .*/port = 9090/' config.ini
grep -n 'port' config.ini config.ini.bak
ls config.ini*
