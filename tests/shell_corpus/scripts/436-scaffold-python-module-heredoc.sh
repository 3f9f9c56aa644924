mod=reports
mkdir -p "src/$mod" "tests/$mod"
cat > "src/$mod/__init__.py" <<EOF
"""The $mod package."""
__all__ = ["build"]
EOF
for name in build render; do
  printf 'def %s():\n    return None\n' "$name" > "src/$mod/$name.py"
  printf 'from src.%s.%s import %s\n\n\ndef test_%s():\n    assert %s() is None\n' "$mod" "$name" "$name" "$name" "$name" > "tests/$mod/test_$name.py"
done
find src/$mod tests/$mod -type f | sort
cat tests/$mod/test_render.py
