echo first
cat <<EOF
body $((1+1))
last line
