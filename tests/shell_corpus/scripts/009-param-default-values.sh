echo "${UNSET:-fallback}"
echo "${UNSET-fallback2}"
empty=""
echo "[${empty:-was empty}]" "[${empty-not used}]"
set_var=value
echo "${set_var:-unused}" "${set_var:+alternate}" "[${UNSET:+alt}]"
