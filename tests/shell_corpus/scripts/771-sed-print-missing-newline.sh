# sed's p and P on a last line without its newline print none (GNU)
printf 'a' | sed p | od -c
printf 'a\nb' | sed -n 'p;p' | od -c
printf 'a' | sed -n 'P;P' | od -c
printf 'a\nb' | sed -n 'N;P;P' | od -c
printf 'a' | sed -n 'p;l' | od -c
printf 'a\nb' | sed -n '$p' | od -c
printf 'x\ny' > f; sed -n p f f | od -c
rm -f f
