echo first > out.txt
echo second >> out.txt
echo third > out.txt
echo fourth >> out.txt
cat out.txt
wc -l < out.txt
