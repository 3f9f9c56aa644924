v="two words"
[[ $v == "two words" ]] && echo "no word splitting"
empty=
[[ -z $empty ]] && echo "no need to quote"
[[ $v == two* ]] && echo "glob on the right"
