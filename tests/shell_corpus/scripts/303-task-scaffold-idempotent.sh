setup() {
  mkdir -p app/config
  [ -f app/config/settings.ini ] || echo "[app]" > app/config/settings.ini
  grep -q '^name' app/config/settings.ini || echo "name = demo" >> app/config/settings.ini
}
setup
setup
cat app/config/settings.ini
