for k in host port workers; do
  v=$(grep "^$k *=" config.ini | cut -d= -f2 | tr -d ' ')
  eval "cfg_$k=\$v"
done
echo "$cfg_host:$cfg_port ($cfg_workers workers)"
