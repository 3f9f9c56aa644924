seq 10 | sed -n '1~3p'
seq 5 | sed -n '$='
seq 6 | sed '0~2d'
