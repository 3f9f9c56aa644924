name="inventory service"
echo "name: $name"
echo 'name: $name'
echo "tab:\t stays" 'and \n too'
echo "nested 'single' in double" 'and "double" in single'
