# sed -i on a symlink replaces the link with the edited file and leaves the
# target alone; with --follow-symlinks it edits the target.
ln -s ../config.ini build/link.ini
sed -i 's/^\[/#[/' build/link.ini
find build -type l | sort
head -2 config.ini; head -2 build/link.ini
ln -s ../requirements.txt build/req
sed -i --follow-symlinks '1s/^/# pinned\n/' build/req
find build -type l | sort
head -2 requirements.txt
