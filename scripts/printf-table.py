#!/usr/bin/env python3
"""Writes src/shell/commands/format_table.tsv: printf formats with what
/bin/bash and mawk print for them (run here, where both are installed).
The unit tests of src/shell/commands/format.rs hold the shell's printf and
awk's sprintf to it."""
import subprocess, itertools, sys
def bash(fmt, args):
    return subprocess.run(['/bin/bash','-c','printf "$@"','_',fmt]+args, capture_output=True, env={'LC_ALL':'C'}).stdout
def mawk(fmt, args, numeric=True):
    prog = 'BEGIN{printf f' + ''.join(', a%d%s' % (i, '+0' if numeric else '') for i in range(len(args))) + '}'
    cmd=['mawk','-v','f='+fmt]+sum([['-v','a%d=%s'%(i,a)] for i,a in enumerate(args)],[])+[prog]
    r=subprocess.run(cmd, capture_output=True, env={'LC_ALL':'C'})
    return r.stdout if r.returncode==0 else None
rows=[]
iflags=["", "-", "+", " ", "#", "0", "+0", "-#"]
iwp=["", "8", ".3", "8.3", ".0"]
for f in iflags:
    for wp in iwp:
        fmt=''.join('[%'+f+wp+c+']' for c in 'dioxXu')
        for v in ["0","7","-42","255"]:
            rows.append((fmt,v,fmt.count('%')))
fflags=["", "-", "+", " ", "#", "0", "+0", "#0"]
fwp=["", "12", ".0", ".3", "12.3", ".10"]
for f in fflags:
    for wp in fwp:
        fmt=''.join('[%'+f+wp+c+']' for c in 'eEfgG')
        for v in ["0","-1.5","3.14159","123456789","0.00001234"]:
            rows.append((fmt,v,fmt.count('%')))
out=[]
for fmt,v,n in rows:
    b=bash(fmt,[v]*n); m=mawk(fmt,[v]*n)
    out.append((fmt,v,b,m))
# strings
for fmt in ["[%s]","[%5s]","[%-5s]","[%.2s]","[%5.1s]","[%-5.3s]","[%c]","[%3c]","[%-3c]","[%.0s]"]:
    for v in ["hello","x",""]:
        out.append((fmt,v,bash(fmt,[v]),mawk(fmt,[v],False)))
for fmt,v in [("[%f][%e][%g][%5.1f][%-6E][%+G]","inf"),("[%f][%e][%g][%5.1f][%-6E][%+G]","-inf"),("[%f][%e][%g][%5.1f][%-6E][%+G]","nan"),("[%f][%e][%g][%5.1f][%-6E][%+G]","-nan"),
    ("[%.0f][%.0f]","0.5"),("[%.0f][%.0f]","2.5"),("[%.1f][%.2f]","0.05"),("[%.2f][%.3e]","1.005"),("[%g][%#g]","100000"),("[%g][%#g]","1000000"),("[%#.1g][%#.0e][%#.0f]","1"),("[%#.1g][%#.3g]","12345"),
    ("[%a][%A]","1"),("[%a][%A]","-2.5"),("[%a][%.2a]","3"),("[%10.3a][%-12a]","3"),("[%a][%.0a]","0"),("[%a][%.1a]","1.96875"),("[%#.0a][%+a]","1"),("[%a][%a]","inf"),("[%010a]","1"),
    ("[%#.0o][%#.0x][%#o][%#x]","0"),("[%.0d][%5.0d][%-5.0i]","0"),("[%.10d][%-+12.10d]","-123")]:
    n=fmt.count('%')
    out.append((fmt,v,bash(fmt,[v]*n),mawk(fmt,[v]*n)))
with open(sys.argv[1] if len(sys.argv) > 1 else 'src/shell/commands/format_table.tsv', 'w') as fh:
    fh.write('# format\targument\tbash printf (the argument given once a conversion)\tmawk printf (= the same; ! differs: mawk has no %a and clamps negative numbers in unsigned conversions to 0, where ours follows gawk)\n')
    for fmt,v,b,m in out:
        esc=lambda x: ''.join(chr(c) if 32<=c<127 and c!=92 else '\\x%02x'%c for c in x)
        bs=esc(b); ms=None if m is None else esc(m)
        fh.write('\t'.join([fmt,v,bs,'=' if ms==bs else '!'])+'\n')
