# shopt -s extglob: extended patterns in pathname expansion (from the next line on).
shopt -s extglob
echo src/@(app|utils).py
echo src/!(*.py)
echo src/!(_*|lib)
echo src/+([a-z]).py
echo src/?(m)o*.py
echo tests/test_@(models|nope).py
echo docs/*/@(faq|setup).md
echo !(*.*)
echo @(.e*|R*)
echo *(.)e*
echo .!(editorconfig)
echo @(src|tests)/*([a-z_]).py
echo data/!(*.csv)
echo src/@(nope|none).py
x='logs/*.@(log|txt)'; echo $x
echo "src/@(app).py" src/\@\(app\).py
for f in data/@(sales|users).csv; do wc -l < "$f"; done
shopt -s dotglob
echo !(*.*|src|tests|docs|data|logs|notes|scripts)
