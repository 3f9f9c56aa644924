line="2024-03-14 10:15:42 ERROR [worker-2] database timeout"
if [[ $line =~ ^([0-9-]+)\ ([0-9:]+)\ ([A-Z]+) ]]; then
  echo "date=${BASH_REMATCH[1]} time=${BASH_REMATCH[2]} level=${BASH_REMATCH[3]}"
fi
re='worker-([0-9]+)'
[[ $line =~ $re ]] && echo "worker ${BASH_REMATCH[1]}, match ${BASH_REMATCH[0]}"
[[ "v1.4.2" =~ ^v([0-9]+)\.([0-9]+) ]] && echo "major ${BASH_REMATCH[1]} minor ${BASH_REMATCH[2]}"
