# A readonly assignment inside eval ends only the eval (status 1); local
# twice keeps the value; readonly of an unset name forbids assigning it;
# a list into an array element fails with status 1 and the script goes on.
f() {
  local x=local
  readonly x
  eval 'x=bar'
  echo "eval status=$?"
  local foo=bar
  local foo
  echo "foo=$foo"
}
x=global
f
echo "x=$x"
readonly never_set
never_set=1
echo "after readonly line: $?"
a=(1 2)
a[0]=(3 4)
echo "list into element: $? ${a[*]}"
