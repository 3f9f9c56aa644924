for i in 1 2; echo $i; done
