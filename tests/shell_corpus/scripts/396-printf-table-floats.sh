printf '%-10s|%5.2f\n' widget 2.5 gadget 12 gizmo 7.249
printf '%05d|%-5d|%+d\n' 42 7 3
printf '%x %o %X %e\n' 255 8 255 1234.5
printf '[%8.3s]\n' abcdef
