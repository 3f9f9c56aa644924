grep -rn '^def \|^class ' src | sort -t: -k1,1 -k2,2n | cut -d'(' -f1
