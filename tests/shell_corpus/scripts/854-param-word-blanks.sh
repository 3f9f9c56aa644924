shopt -s extglob
v="a  b   c"
echo "${v//+( )/-}"
w="   lead"; echo "[${w##+( )}]"
echo "${x:-( a)}"
echo "${x:-a |  b; c}"
echo "${x:-two  spaces}"
t="a
b"; echo "${t//$'\n'/+}"
echo "${x:-line
break}"
