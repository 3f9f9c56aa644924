# grep -I: a binary file (one holding a NUL) matches nothing, silently.
printf 'import os\0\001binary\n' > build/blob.bin
grep -rl import build; echo "plain $?"
grep -rIl import build src | sort; echo "skip $?"
grep -I import build/blob.bin; echo "one file $?"
grep -Ic import build/blob.bin src/utils.py
grep -IL import build/blob.bin
grep -rnI 'import os' . | sort
