# set - ends the options and keeps the positional parameters when nothing
# follows; a lone + is ignored; under set -e an unset variable exits 1.
set -- a b
set - +
echo "$# $*"
set -- keep me
set -
echo "$# $*"
set + -
echo "$# $*"
set x - y
echo "$# $*"
set -eu
echo "[$undefined_variable]"
echo never
