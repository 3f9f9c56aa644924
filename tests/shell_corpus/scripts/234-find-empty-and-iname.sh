find . -empty | sort
find . -iname "readme*" | sort
find . -type f -name "*.sh" | sort
