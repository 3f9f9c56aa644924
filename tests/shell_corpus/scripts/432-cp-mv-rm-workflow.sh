mkdir -p backup
cp -r src backup/
mv backup/src backup/src.old
rm -r backup/src.old/lib
find backup | sort
rm -rf backup
ls -d backup 2>&1
