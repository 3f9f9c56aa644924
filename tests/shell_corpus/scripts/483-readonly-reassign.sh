# A readonly assignment abandons its line, and the script goes on.
readonly version=1.0; version=2.0; echo "not printed"
echo "version $version, status $?"
f() { version=3; echo "in f"; }; f; echo "not printed either"
version=4 true; echo "prefix: $?"
for i in 1 2; do version=5; echo "loop $i"; done
echo "still running"
