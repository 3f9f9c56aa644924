echo {a,b,c}.txt
echo file{1..5}
echo {1..10..3} {c..a}
echo pre{x,y}{1,2}post
mkdir -p proj/{src,tests,docs}
ls proj
