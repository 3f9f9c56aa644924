sed -i '/^\[database\]/,/^$/d' config.ini
cat config.ini
