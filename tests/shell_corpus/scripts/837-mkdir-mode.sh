# mkdir -m sets the new directory's mode (octal or symbolic from rwxrwxrwx);
# with -p only the last directory gets it; a bad mode is refused before
# anything is made. Modes are checked with find -perm (exact), and only
# modes that the umask cannot change are shown.
mkdir -m 700 build/private && find build/private -perm 700
mkdir -m u=rwx,go=rx build/open && find build/open -perm 755
mkdir -m go-rx build/narrow && find build/narrow -perm 722
mkdir -pm 750 build/x/y/z && find build/x/y/z -perm 750
mkdir -m 999 build/bad 2>&1; echo "bad mode $?"
ls build | sort
