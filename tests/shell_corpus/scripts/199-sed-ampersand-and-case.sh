echo "version 1.4.2" | sed 's/[0-9.]*$/[&]/'
echo "hello" | sed 's/.*/"&"/'
echo "Hello World" | sed 's/[A-Z]/_&/g'
