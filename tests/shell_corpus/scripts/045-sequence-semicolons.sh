echo a; echo b ; echo c;echo d
mkdir tmp1; touch tmp1/x; ls tmp1; rm -r tmp1; ls -d tmp1 2>/dev/null || echo gone
