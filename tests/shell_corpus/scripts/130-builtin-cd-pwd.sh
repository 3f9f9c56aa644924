cd src
basename "$(pwd)"
cd lib
basename "$PWD"
cd ..
basename "$PWD"
cd ../docs/guide && ls
cd - > /dev/null
basename "$PWD"
