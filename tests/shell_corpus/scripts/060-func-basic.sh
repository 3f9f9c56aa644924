greet() {
  echo "hello, $1"
}
function shout {
  echo "${1^^}!"
}
greet world
shout hey
greet "two words"
