# nocaseglob (pathname expansion) and nocasematch (case, [[ ]], =~, ${v/p/r}).
shopt -s nocaseglob
echo readme.*
echo *.MD
echo SRC/*.py src/APP.*
echo [m]akefile
echo [[:lower:]]akefile
echo D*/
shopt -u nocaseglob
echo readme.*
shopt -s nocasematch
case README in readme) echo case;; esac
[[ Makefile == make* ]] && echo dbl
[[ Makefile != MAKEFILE ]] || echo ne
[[ "ERROR: x" =~ ^error ]] && echo "re ${BASH_REMATCH[0]}"
case B in [a-c]) echo range;; esac
case b in [[:upper:]]) echo upper;; *) echo not-upper;; esac
v=ABCabc
echo "${v#a}" "${v##a*}" "${v%C}" "${v/b/-}" "${v//b/-}" "${v/#a/-}" "${v/%C/-}"
shopt -u nocasematch
[[ Makefile == make* ]] || echo case-again
