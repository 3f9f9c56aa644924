cp -r src src_copy
ls -R src_copy
cp -r docs/guide notes/
ls notes/guide
