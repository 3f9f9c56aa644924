# A subshell is outside the loop around it: continue there is an error
# and the subshell goes on; too many arguments to break stops the script.
for i in 1 2; do
  echo "> $i"
  ( if true; then continue; fi; echo "still in the subshell $i" )
  echo "subshell status=$?"
done
for i in 1 2; do echo "$i" | while read -r x; do break; done; echo "after pipe $i"; done
for x in a b c; do
  echo "$x"
  break 1 2
done
echo never
