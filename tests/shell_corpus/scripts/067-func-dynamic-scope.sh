outer() { local v=outer_value; inner; }
inner() { echo "inner sees $v"; }
v=global
outer
inner
