# shopt: query, -p, -q, invalid names.
shopt extglob globstar nullglob
shopt -s extglob globstar
shopt extglob globstar
shopt -p extglob dotglob
shopt -q failglob; echo "q $?"
shopt -q extglob; echo "q $?"
shopt -s nosuchopt 2>&1; echo "bad $?"
shopt -q nosuchopt 2>&1; echo "badq $?"
shopt sourcepath inherit_errexit; echo "st $?"
shopt -u extglob globstar; shopt -p extglob globstar
