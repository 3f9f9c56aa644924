printf '%s has %d items\n' cart 3
printf '%5s|%-5s|\n' ab cd
printf '%05d %x %o %X\n' 42 255 8 255
printf '%.2f %.0f %8.3f\n' 3.14159 2.5 1.5
printf '%s\n' one two three
printf '%%literal %c\n' xyz
printf '[%3d]\n' 1 22 333 4444
