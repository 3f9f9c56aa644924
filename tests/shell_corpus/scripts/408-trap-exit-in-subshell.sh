(
  trap 'echo inner cleanup' EXIT
  echo inside
)
echo "after subshell rc=$?"
trap 'echo outer cleanup' EXIT
echo end
