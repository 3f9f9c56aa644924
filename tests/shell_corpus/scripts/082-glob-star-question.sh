ls src/*.py
ls notes/*.txt
echo data/*.?sv
echo docs/guide/*.md
