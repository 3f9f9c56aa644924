var=greeting
greeting="hi there"
echo "${!var}"
outer=${inner:-${fallback:-deep default}}
echo "$outer"
