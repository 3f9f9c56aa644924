true | xargs echo "ran with:"
printf '' | xargs -r echo "not printed" 2>/dev/null
echo "status $?"
