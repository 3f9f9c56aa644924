x=global
f() {
  local x=local
  y=leaked
  echo "in f: $x"
}
f
echo "after f: $x $y"
g() { local z; z=1; echo "g: $z"; }
g
echo "z=[${z}]"
