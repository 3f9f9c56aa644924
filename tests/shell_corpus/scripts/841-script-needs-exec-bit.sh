printf "echo hi\n" > s.sh
./s.sh; echo "not executable: $?"
chmod +x s.sh; ./s.sh; echo "executable: $?"
bash s.sh; chmod -x s.sh; . ./s.sh
