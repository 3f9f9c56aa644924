echo "a b c" | xargs echo items:
printf 'src/app.py\nsrc/utils.py\n' | xargs wc -l
ls notes/*.txt | head -n 1 | xargs -I{} echo "file: {}"
