echo "step 1" | tee -a build/log.txt
echo "step 2" | tee -a build/log.txt > /dev/null
printf 'step %d\n' 3 4 | tee -a build/log.txt | wc -l
cat build/log.txt
