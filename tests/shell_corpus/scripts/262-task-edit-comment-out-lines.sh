sed -i 's/^\(workers\|debug\) =/# &/' config.ini
grep -n '^#' config.ini
sed -n '/^\[server\]/,/^$/p' config.ini
