# getopts: OPTIND starts at 1, OPTARG is unset after an option without one
# and at the end, a clustered -c10, the first operand stops the loop.
echo "start OPTIND=$OPTIND"
set -- -c foo -h rest
getopts 'hc:' opt; echo "st=$? opt=$opt OPTARG=${OPTARG-unset}"
getopts 'hc:' opt; echo "st=$? opt=$opt OPTARG=${OPTARG-unset}"
getopts 'hc:' opt; echo "st=$? opt=$opt OPTARG=${OPTARG-unset} OPTIND=$OPTIND"
OPTIND=1
getopts "c:" o -c10; echo "OPTIND=$OPTIND o=$o OPTARG=${OPTARG-unset}"
getopts "c:" o -c10; echo "OPTIND=$OPTIND o=$o OPTARG=${OPTARG-unset}"
OPTIND=1
set -- x -h
while getopts "h" o; do echo "never $o"; done
echo "after operand OPTIND=$OPTIND"
set -- -a
OPTIND=1
while getopts "a" o; do :; done
set -- -b
OPTIND=5
getopts "b" o; echo "past the end st=$? OPTIND=$OPTIND o=$o"
OPTIND=1
getopts 'c:' bad-name -c 3; echo "bad name st=$? OPTARG=$OPTARG OPTIND=$OPTIND"
