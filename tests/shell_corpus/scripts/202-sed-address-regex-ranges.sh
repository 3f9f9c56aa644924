sed -n '/^\[server\]/,/^\[/p' config.ini
sed '/^\[logging\]/,$d' config.ini | tail -n 3
sed -n '/def /=' src/utils.py
