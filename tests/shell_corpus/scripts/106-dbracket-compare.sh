[[ 10 -gt 9 ]] && echo "numeric gt"
[[ 10 > 9 ]] || echo "string 10 sorts before 9"
[[ abc < abd ]] && echo "string lt"
x=5
[[ $x -eq 5 && ! $x -eq 6 ]] && echo "combined"
[[ ( $x -gt 1 ) && ( $x -lt 10 ) ]] && echo "grouped"
