# dotglob, nullglob and GLOBIGNORE as bash 5.2 has them.
echo *
echo .*
shopt -s dotglob
echo *
echo .* build/*
echo */ | tr ' ' '\n' | head -n 3
shopt -u dotglob
shopt -s nullglob
set -- *.zz src/*.zz; echo "$# [$*]"
a=(data/*.csv nope/*); echo "${#a[@]}"
shopt -u nullglob
GLOBIGNORE='*.md:*.txt'
echo *
echo README*
GLOBIGNORE='data/u*'
echo data/*
GLOBIGNORE='s*'
echo * src/*
unset GLOBIGNORE
echo *
