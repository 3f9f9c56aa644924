grep -q '^DEBUG=' .env && sed -i 's/^DEBUG=.*/DEBUG=0/' .env
echo "LOG_LEVEL=warn" >> .env
sort .env
