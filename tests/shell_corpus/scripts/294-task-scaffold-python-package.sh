name=reporting
mkdir -p "$name"/{src/"$name",tests,docs}
touch "$name/src/$name/__init__.py"
cat > "$name/README.md" <<EOF2
# $name

Generated scaffold.
EOF2
printf 'def test_placeholder():\n    assert True\n' > "$name/tests/test_$name.py"
find "$name" | sort
