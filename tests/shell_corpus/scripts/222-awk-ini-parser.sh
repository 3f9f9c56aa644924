awk -F' = ' '/^\[/ {sect = substr($0, 2, length($0) - 2); next} NF == 2 {print sect "." $1 "=" $2}' config.ini
