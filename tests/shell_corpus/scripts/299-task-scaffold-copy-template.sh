mkdir -p templates/service
printf 'name: __NAME__\nport: __PORT__\n' > templates/service/config.yml
for svc in api:8001 worker:8002; do
  name=${svc%%:*}; port=${svc##*:}
  mkdir -p "services/$name"
  sed -e "s/__NAME__/$name/" -e "s/__PORT__/$port/" templates/service/config.yml > "services/$name/config.yml"
done
cat services/*/config.yml
