FOO=outer
show_foo() { echo "function sees $FOO"; }
FOO=inner show_foo
echo "after: $FOO"
show() { echo "func sees ${BAR:-nothing}"; }
BAR=temp show
echo "BAR after: [${BAR}]"
