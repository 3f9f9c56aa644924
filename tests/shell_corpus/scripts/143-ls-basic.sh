ls
ls src
ls -a src | head -n 3
