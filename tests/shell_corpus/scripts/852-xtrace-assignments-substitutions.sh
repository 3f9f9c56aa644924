exec 2>&1
set -x
x=1 echo c 2>/dev/null
x=$(echo in) 2>/dev/null
echo $(echo a; echo $(echo b))
f() { echo in; }
y=$(f)
a=(1 2); a+=(3); b[1]=x; s=a; s+=b
declare d=1 e; export w="q r"
for i in 1 "2 3"; do :; done
case $x in *) ;; esac
readonly R=1
R=2 true 2>/dev/null
echo $?
R=2 2>/dev/null
echo next
set +x
