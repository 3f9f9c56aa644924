export APP_ENV=staging
export OTHER=1 THIRD
NOT_EXPORTED=1
export | grep -c APP_ENV
export -p | grep -c OTHER
echo "$APP_ENV"
