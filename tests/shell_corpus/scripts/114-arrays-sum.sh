nums=(4 8 15 16 23 42)
sum=0
for n in "${nums[@]}"; do sum=$((sum + n)); done
echo "sum=$sum"
echo "max index ${#nums[@]}"
nums[1]=$((nums[1] * 10))
echo "${nums[1]}"
