echo "python files: $(ls src/*.py | wc -l)"
version=$(grep -m1 '^Version' README.md | cut -d' ' -f2)
echo "version=$version"
mkdir -p "release-$version"
ls -d release-*
