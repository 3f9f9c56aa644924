name="dana smith"
echo "${name^}" "${name^^}"
up="LOUD Noise"
echo "${up,}" "${up,,}"
word=mixedCase
echo "${word^^[aeiou]}"
