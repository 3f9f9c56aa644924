sed '1i # generated' notes/ideas.txt
sed '/add a CLI/a   with subcommands' notes/ideas.txt
sed '2c replaced line' notes/ideas.txt
