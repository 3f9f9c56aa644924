mkdir newdir
mkdir -p a/b/c
mkdir -p a/b
ls -R a
mkdir newdir 2>/dev/null || echo "exists already"
