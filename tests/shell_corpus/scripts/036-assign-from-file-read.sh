read -r header < data/users.csv
echo "header is $header"
IFS=, read -r id name email role <<< "9,ivan,ivan@example.com,dev"
echo "$name <$email> is $role"
