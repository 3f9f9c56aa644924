grep -rl 'def ' --include='*.py' . | sort | xargs grep -c 'def ' | sort -t: -k2,2nr -k1,1
