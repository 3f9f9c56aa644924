printf -v line '%s=%s' key value
echo "$line"
printf '%s\n' "tab:\there" 'lit:\t'
printf '%b\n' 'a\tb' 'c\nd'
printf '%q\n' 'a b' "it's"
