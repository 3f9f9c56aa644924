# printf's layout is one core for the shell's printf and awk's: the same
# conversions print the same bytes; %a as bash's long double, -nan, %q cut
# by its precision; awk's %#g keeps its point and %c of "" is a NUL.
printf '[%a][%A][%.2a][%#.0a][%010a]\n' 1 -2.5 3 1 1
printf '[%f][%e][%G]\n' -nan inf -inf
printf '[%.2q][%5.3q][%-6q]\n' 'a b' 'a b' x
printf '[%#.0o][%#.0x][%+.3d][% 08.2f][%-#10x]\n' 0 0 7 -1.5 255
awk 'BEGIN { printf "[%#.1g][%#g][%+u][%05.1f][%-6.2e]\n", 1, 123456, 5, -1.25, 1234.5 }'
awk 'BEGIN { printf "[%c]", "" }' | od -An -c
awk 'BEGIN { printf "[%d][%5s][%.1s][%c]\n", -3.9, "ab", "xyz", 65 }'
# awk's regexes go through the same translator as grep's.
echo "a.b a)b" | awk "{ print match(\$0, /a\\.b/), match(\$0, /a)/) }"
printf 'a\bc\n' | awk '/^a\bc$/ { print "backspace" }'
echo 'AB' | awk '/^\101[\102]$/ { print "octal" }'
