x=outer
( x=inner; echo "in subshell: $x"; cd src; ls app.py )
echo "after: $x"
ls -d src
( cd notes && ls ) | head -n 2
