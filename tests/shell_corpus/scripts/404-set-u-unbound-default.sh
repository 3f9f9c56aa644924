set -u
echo "${MISSING:-default}"
echo "${MISSING-other}"
: "${CONFIG:=config.ini}"
echo "$CONFIG"
echo "$UNDEFINED_THING"
echo after
