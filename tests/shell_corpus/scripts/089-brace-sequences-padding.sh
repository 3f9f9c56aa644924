echo {01..12}
echo {a..e}
echo {5..1}
for i in {1..3}; do echo "item-$i"; done
