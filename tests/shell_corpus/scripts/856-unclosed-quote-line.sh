exec 2>&1
echo first
echo "this quote
never ends
