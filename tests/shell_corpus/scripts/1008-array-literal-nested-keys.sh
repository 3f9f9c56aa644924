# Array literal elements whose index holds brackets ([a[0]]=v): the index
# is arithmetic, evaluated in order, seeing the elements before it.
a=([0]=1+2+3 [a[0]]=10 [a[6]]=hello)
echo "keys: ${!a[*]}"
echo "vals: ${a[*]}"
b=(x y z)
i=1
b+=([b_len]=q [i+4]=r)
echo "keys: ${!b[*]} vals: ${b[*]}"
