outer() {
  local -a items=(a b c)
  inner() {
    local -a items=(x y)
    items+=(z)
    echo "inner: ${items[*]} (${#items[@]})"
  }
  inner
  echo "outer: ${items[*]} (${#items[@]})"
}
outer
echo "global: [${items[*]:-unset}]"
