for k in host port; do
  v=$(grep "^$k" config.ini | head -1 | cut -d= -f2 | tr -d ' ')
  eval "cfg_$k=\$v"
done
echo "$cfg_host:$cfg_port"
name=cfg_port
echo "${!name}"
