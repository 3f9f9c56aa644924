sed 's/=.*/=/' .env > .env.example
cat .env.example
ls -a | grep env
