a=1 b=2 c=3
echo "$a $b $c"
s=hello
s+=" world"
echo "$s"
n=5
n+=1
echo "$n"
