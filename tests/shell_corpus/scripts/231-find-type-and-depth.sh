find . -type d | sort
find . -maxdepth 1 -type f | sort
find . -mindepth 2 -type d | sort
