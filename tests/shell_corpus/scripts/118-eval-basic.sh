cmd="echo hello from eval"
eval "$cmd"
var=name
eval "$var=value"
echo "name=$name"
eval 'for i in 1 2; do echo "loop $i"; done'
