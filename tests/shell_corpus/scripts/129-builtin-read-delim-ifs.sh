IFS=: read -r user pass rest <<< "root:x:0:0:root:/root:/bin/bash"
echo "$user $pass $rest"
IFS=, read -r -a cols <<< "date,region,product"
echo "${#cols[@]} columns, last ${cols[2]}"
