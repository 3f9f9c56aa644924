declare -A conf
section=
while IFS= read -r line; do
  case $line in
    \;*|'') continue ;;
    \[*\]) section=${line//[\[\]]/} ;;
    *=*) k=${line%% =*}; v=${line#*= }; conf[$section.$k]=$v ;;
  esac
done < config.ini
echo "${conf[server.port]} ${conf[database.pool_size]} ${conf[logging.level]}"
echo "${#conf[@]} keys"
for k in "${!conf[@]}"; do echo "$k"; done | sort | head -3
