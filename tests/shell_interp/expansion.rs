//! Word expansion: parameters, arrays, arithmetic, substitutions, splitting, globbing, quoting.

use super::*;

#[test]
fn quoting_and_escapes() {
    check(
        "x=5; echo \"$x\" ${x}y '$x' \"a\\$b\" a\\ b \"back\\\\slash\" $'ansi\\tc'",
        "5 5y $x a$b a b back\\slash ansi\tc\n",
        "",
        0,
    );
}

#[test]
fn default_values() {
    check(
        "echo ${v:-def} ${v-def2} ${v:=set}; echo $v; v=; echo \"[${v:-d}] [${v-d}] [${v:+alt}] [${v+alt}]\"",
        "def def2 set\nset\n[d] [] [] [alt]\n",
        "",
        0,
    );
}

#[test]
fn assign_default_colon() {
    check(": ${X:=default}; echo $X; : ${Y=other}; echo $Y", "default\nother\n", "", 0);
}

#[test]
fn length_and_affixes() {
    check("s=hello.tar.gz; echo ${#s} ${s#*.} ${s##*.} ${s%.*} ${s%%.*}", "12 tar.gz gz hello.tar hello\n", "", 0);
}

#[test]
fn replace() {
    check(
        "s=aXbXc; echo ${s/X/-} ${s//X/-} ${s/#a/A} ${s/%c/C} ${s/X}; x=abc; echo \"${x//[ac]/_}\"",
        "a-bXc a-b-c AXbXc aXbXC abXc\n_b_\n",
        "",
        0,
    );
}

#[test]
fn substring() {
    check("s=abcdef; echo ${s:2} ${s:2:2} ${s: -2} ${s:1:-1} ${s: -3:2}; x=abc; echo ${x:1:1}${x: -1} ${x:10} \"${x:0:0}\"", "cdef cd ef bcde de\nbc \n", "", 0);
}

#[test]
fn arrays() {
    check("a=(x y z); echo ${a[1]} ${a[@]} ${a[*]} ${#a[@]} ${!a[@]} \"${a[-1]}\"; a[5]=w; a+=(v u); echo ${#a[@]} ${!a[@]} ${a[@]}", "y x y z x y z 3 0 1 2 z\n6 0 1 2 5 6 7 x y z w v u\n", "", 0);
}

#[test]
fn array_slices() {
    check(
        "a=(one two three); echo ${a[@]:1} ${a[@]:0:2} ${#a[1]} ${a[@]^}",
        "two three one two 3 One Two Three\n",
        "",
        0,
    );
}

#[test]
fn positional() {
    check("set -- a \"b c\" d; echo $# \"$1\" \"$2\"; for i in \"$@\"; do echo \"[$i]\"; done; for i in $@; do echo \"<$i>\"; done; echo \"$*\"; IFS=,; echo \"$*\"", "3 a b c\n[a]\n[b c]\n[d]\n<a>\n<b>\n<c>\n<d>\na b c d\na,b c,d\n", "", 0);
}

#[test]
fn positional_ten() {
    check("set -- 1 2 3 4 5 6 7 8 9 10 11; echo ${10} ${11} $10", "10 11 10\n", "", 0);
}

#[test]
fn positional_slices() {
    check("f() { echo ${@:2}; echo ${*:1:2}; echo ${#}; }; f a b c d", "b c d\na b\n4\n", "", 0);
}

#[test]
fn special_params() {
    check("echo $? ; false; echo $?; echo $0 $#", "0\n1\nbash 0\n", "", 0);
}

#[test]
fn arithmetic() {
    check("echo $((1+2*3)) $((10/3)) $((10%3)) $((2**10)) $((1<<4)) $((255&15)) $((1|6)) $((5^1)) $((~0)) $((!0)) $((1&&0)) $((0||3)) $((5>3?1:2))", "7 3 1 1024 16 15 7 4 -1 1 0 1 1\n", "", 0);
}

#[test]
fn arithmetic_vars() {
    check("i=0; ((i++)); ((i+=5)); echo $i $((i--)) $i $((--i)) $((0x1f)) $((010)) $((2#101)) $((36#z)); n=3; echo $((n*n)) $((n+=1)) $n $(( $(echo 3) + 4 )) $[ 4 + 4 ]", "6 6 5 4 31 8 5 35\n9 4 4 7 8\n", "", 0);
}

#[test]
fn arithmetic_wrapping() {
    check(
        "echo $((2**63)) $((-2**63/-1)) $((7/-2)) $((-7%3))",
        "-9223372036854775808 -9223372036854775808 -3 -1\n",
        "",
        0,
    );
}

#[test]
fn division_by_zero_is_fatal() {
    check("echo $((1/0)); echo after", "", "bash: line 1: 1/0: division by 0 (error token is \"0\")\n", 1);
}

#[test]
fn field_splitting() {
    check(
        "x=\"a   b  c\"; echo $x; echo \"$x\"; IFS=: ; y=\"p:q::r\"; for f in $y; do echo \"[$f]\"; done",
        "a b c\na   b  c\n[p]\n[q]\n[]\n[r]\n",
        "",
        0,
    );
}

#[test]
fn splitting_params() {
    check(
        "x=\" a b \"; set -- $x; echo $#; set -- \"$x\"; echo $#; set -- \"\" a \"\"; echo $#; y=; set -- $y; echo $#",
        "2\n1\n3\n0\n",
        "",
        0,
    );
}

#[test]
fn brace_expansion() {
    check(
        "echo {a,b}{1,2} {1..5} {a..e} {01..10} {1..10..2} {5..1} x{,y}z {a}",
        "a1 a2 b1 b2 1 2 3 4 5 a b c d e 01 02 03 04 05 06 07 08 09 10 1 3 5 7 9 5 4 3 2 1 xz xyz {a}\n",
        "",
        0,
    );
}

#[test]
fn tilde() {
    check("echo ~ ~/foo \"~\" ~x; HOME=/home/u; echo ~/bar", "/ //foo ~ ~x\n/home/u/bar\n", "", 0);
}

#[test]
fn indirect_and_prefix() {
    check("x=hello; y=x; echo ${!y}; BVAR=1; BVAR2=2; echo ${!BVAR*}", "hello\nBVAR BVAR2\n", "", 0);
}

#[test]
fn quotes_mixed() {
    check(
        "echo 'single \"double\"' \"double 'single'\"; x=\"*\"; echo \"$x\"",
        "single \"double\" double 'single'\n*\n",
        "",
        0,
    );
}

#[test]
fn transform_ops() {
    check("x=\"it's\"; echo ${x@Q}; y=abc; echo ${y@U}", "'it'\\''s'\nABC\n", "", 0);
}

#[test]
fn globbing() {
    check("cd d; echo *.txt; echo *; echo .*; echo */; echo nomatch*; echo \"*.txt\"; echo sub/*.log; echo [ab].txt; echo ?.txt", "a.txt b.txt\na.txt b.txt sub\n.hidden\nsub/\nnomatch*\n*.txt\nsub/c.log\na.txt b.txt\na.txt b.txt\n", "", 0);
}

#[test]
fn glob_in_for() {
    check(
        "for f in d/*.txt; do echo \"file: $f\"; done; for f in /nonexistent*; do echo \"$f\"; done",
        "file: d/a.txt\nfile: d/b.txt\n/nonexistent*\n",
        "",
        0,
    );
}

#[test]
fn assoc_arrays() {
    check("declare -A m; m[one]=1; m[two]=2; echo ${m[one]} ${m[two]} ${#m[@]}; k=two; echo ${m[$k]}; unset 'm[one]'; echo ${#m[@]}", "1 2 2\n2\n1\n", "", 0);
}

#[test]
fn array_append_element() {
    check("a=(1); a+=(2 3); a[1]+=x; echo ${a[@]}; s=str; s+=ing; echo $s", "1 2x 3\nstring\n", "", 0);
}

#[test]
fn word_splitting_cmdsub() {
    check("for w in $(echo 'a b'; echo c); do echo \"[$w]\"; done", "[a]\n[b]\n[c]\n", "", 0);
}

#[test]
fn quoted_at_empty() {
    check("set --; for a in \"$@\"; do echo arg; done; echo \"[$@]\"; set -- ''; for a in \"$@\"; do echo \"arg[$a]\"; done", "[]\narg[]\n", "", 0);
}

#[test]
fn dollar_star_unquoted() {
    check("set -- 'a b' c; for a in $*; do echo \"[$a]\"; done", "[a]\n[b]\n[c]\n", "", 0);
}

#[test]
fn dollar_question_after_if() {
    check("if false; then :; fi; echo $?; if false; then :; else (exit 4); fi; echo $?", "0\n4\n", "", 0);
}

#[test]
fn ifs_empty() {
    check("x='a b'; IFS=; set -- $x; echo $#", "1\n", "", 0);
}

#[test]
fn ifs_custom_whitespace() {
    check(
        "IFS=' :'; x=' a : b ::c '; set -- $x; echo $#; for a; do echo \"[$a]\"; done",
        "4\n[a]\n[b]\n[]\n[c]\n",
        "",
        0,
    );
}

#[test]
fn ifs_newline() {
    check("IFS=$'\\n'; x=$'a b\\nc d'; for l in $x; do echo \"[$l]\"; done", "[a b]\n[c d]\n", "", 0);
}

#[test]
fn quoted_expansion_in_default() {
    check("unset v; for w in ${v:-\"a b\" c}; do echo \"[$w]\"; done; echo \"${v:-x y}\"", "[a b]\n[c]\nx y\n", "", 0);
}

#[test]
fn nested_param_default() {
    check("unset a b; echo ${a:-${b:-inner}}", "inner\n", "", 0);
}

#[test]
fn array_quoted_at() {
    check("a=('x y' z); for i in \"${a[@]}\"; do echo \"[$i]\"; done; for i in ${a[@]}; do echo \"<$i>\"; done; echo \"${a[*]}\"", "[x y]\n[z]\n<x>\n<y>\n<z>\nx y z\n", "", 0);
}

#[test]
fn array_in_string() {
    check("a=(1 2 3); echo \"pre ${a[@]} post\"; s=\"${a[@]}\"; echo \"$s\"", "pre 1 2 3 post\n1 2 3\n", "", 0);
}

#[test]
fn array_length_element() {
    check("a=(hello world); echo ${#a} ${#a[0]} ${#a[1]}", "5 5 5\n", "", 0);
}

#[test]
fn array_negative() {
    check("a=(1 2 3); echo ${a[-1]} ${a[-3]}; a[-1]=x; echo ${a[@]}", "3 1\n1 2 x\n", "", 0);
}

#[test]
fn array_from_glob() {
    check("cd d; a=(*.txt); echo ${#a[@]} ${a[0]}", "2 a.txt\n", "", 0);
}

#[test]
fn array_from_cmdsub() {
    check("a=($(echo x y z)); echo ${#a[@]}", "3\n", "", 0);
}

#[test]
fn array_keys_sparse() {
    check("a=([3]=c [1]=a); echo ${!a[@]} ${a[@]}", "1 3 a c\n", "", 0);
}

#[test]
fn assoc_iteration() {
    check("declare -A m=([a]=1); m[b]=2; echo ${m[a]} ${m[b]} ${#m[@]}", "1 2 2\n", "", 0);
}

#[test]
fn string_ops_on_arrays() {
    check("a=(a.txt b.txt); echo ${a[@]%.txt} ${a[@]/a/A} ${a[@]#?}", "a b A.txt b.txt .txt .txt\n", "", 0);
}

#[test]
fn arith_with_arrays() {
    check(
        "a=(5 6); echo $((a[0]+a[1])) $((a[1]*2)); (( a[2] = 7 )); echo ${a[2]}; i=1; echo $((a[i]))",
        "11 12\n7\n6\n",
        "",
        0,
    );
}

#[test]
fn arith_assign_ops() {
    check("x=10; ((x*=2, x-=5, x/=3, x%=4, x<<=2, x|=1, x^=3, x&=6)); echo $x", "6\n", "", 0);
}

#[test]
fn arith_string_var() {
    check("x='1+2'; echo $((x*3)); y=z; z=4; echo $((y+1))", "9\n5\n", "", 0);
}

#[test]
fn arith_nested_parens() {
    check("echo $(( (1+2)*(3+4) )) $(( -(-3) )) $(( +5 )) $(( 1 ? 2 : 3 ))", "21 3 5 2\n", "", 0);
}

#[test]
fn arith_comparisons() {
    check("echo $((1<2)) $((2<=2)) $((3>4)) $((4>=4)) $((1==1)) $((1!=1))", "1 1 0 1 1 0\n", "", 0);
}

#[test]
fn arith_negative_exponent() {
    check("echo $((2**-1)); echo after", "", "bash: line 1: 2**-1: exponent less than 0 (error token is \"1\")\n", 1);
}

#[test]
fn cmdsub_trailing_newlines() {
    check("x=$(echo a; echo; echo); echo \"[$x]\"; y=\"$(echo ' sp ')\"; echo \"[$y]\"", "[a]\n[ sp ]\n", "", 0);
}

#[test]
fn cmdsub_in_double_quotes_with_quotes() {
    check("echo \"$(echo \"inner \\\"q\\\"\")\"", "inner \"q\"\n", "", 0);
}

#[test]
fn backtick_escapes() {
    check("echo `echo \\$HOME`; echo `echo '\\\\'`", "/\n\\\n", "", 0);
}

#[test]
fn glob_hidden() {
    check("cd d; echo .h*; echo *; echo .*", ".hidden\na.txt b.txt sub\n.hidden\n", "", 0);
}

#[test]
fn glob_question_class() {
    check("cd d; echo [!b].txt ?.t?t [a-b]*", "a.txt a.txt b.txt a.txt b.txt\n", "", 0);
}

#[test]
fn glob_nested_dirs() {
    check("echo d/*/*.log d/s*/c*; echo */", "d/sub/c.log d/sub/c.log\nd/\n", "", 0);
}

#[test]
fn glob_quoted_parts() {
    check("cd d; echo \"a\"*; echo 'a*'; x='*.txt'; echo $x; echo \"$x\"", "a.txt\na*\na.txt b.txt\n*.txt\n", "", 0);
}

#[test]
fn glob_absolute() {
    check(
        "cd d; x=$(pwd); echo ${x}/*.txt | while read l; do for w in $l; do echo ${w##*/}; done; done",
        "a.txt\nb.txt\n",
        "",
        0,
    );
}

#[test]
fn glob_noglob() {
    check("cd d; set -f; echo *; set +f; echo *.txt", "*\na.txt b.txt\n", "", 0);
}

#[test]
fn tilde_in_assignment() {
    check("HOME=/h; x=~/a; echo $x; y=\"~\"; echo $y", "/h/a\n~\n", "", 0);
}

#[test]
fn brace_with_vars() {
    check("x=1; echo {a,b}$x ${x}{c,d}; echo \"{a,b}\" \\{a,b\\}", "a1 b1 1c 1d\n{a,b} {a,b}\n", "", 0);
}

#[test]
fn brace_nested_seq() {
    check("echo {a,b{1..3}} {x..z..2} {10..1..3} {-2..2}", "a b1 b2 b3 x z 10 7 4 1 -2 -1 0 1 2\n", "", 0);
}

#[test]
fn brace_in_for() {
    check("for i in {1..3}; do echo n$i; done", "n1\nn2\nn3\n", "", 0);
}

#[test]
fn special_dollar_hash_in_func() {
    check("f() { echo $#; }; f a b c; f", "3\n0\n", "", 0);
}

#[test]
fn param_length_unicode_free() {
    check("x=abcdef; echo ${#x}", "6\n", "", 0);
}

#[test]
fn replace_with_slash_and_special() {
    check("p=/a/b/c; echo ${p//\\//:} ${p#/} ${p%/*} ${p##*/}", ":a:b:c a/b/c /a/b c\n", "", 0);
}

#[test]
fn replace_anchored_empty() {
    check("x=abc; echo ${x/#/>} ${x/%/<}", ">abc abc<\n", "", 0);
}

#[test]
fn replace_ampersand() {
    check("x=abc; echo ${x/b/[&]} \"${x/b/\\&}\"", "a[b]c a&c\n", "", 0);
}

#[test]
fn upper_lower_arrays() {
    check("a=(ab cd); echo ${a[@]^^} ${a[@],}", "AB CD ab cd\n", "", 0);
}

#[test]
fn substring_negative_length() {
    check("x=abcdef; echo ${x:1:-2} ${x: -4:-1}", "bcd cde\n", "", 0);
}

#[test]
fn default_with_array() {
    check("a=(); echo ${a[@]:-empty}; b=(x); echo ${b[@]:-empty}", "empty\nx\n", "", 0);
}

#[test]
fn indirect_array() {
    check("a=(x y); n='a[1]'; echo ${!n}", "y\n", "", 0);
}

#[test]
fn star_vs_at_in_string() {
    check("set -- a b; x=\"$@\"; y=\"$*\"; echo \"$x|$y\"", "a b|a b\n", "", 0);
}

#[test]
fn empty_string_args() {
    check("f() { echo $#; }; f '' \"\" $empty \"$empty\"", "3\n", "", 0);
}

#[test]
fn line_continuation() {
    check("echo a \\\nb; x=1\\\n2; echo $x", "a b\n12\n", "", 0);
}

#[test]
fn comments() {
    check("echo a # comment\n# full line\necho b#notcomment", "a\nb#notcomment\n", "", 0);
}

#[test]
fn semicolons_and_newlines() {
    check("echo a;echo b\n\necho c", "a\nb\nc\n", "", 0);
}

#[test]
fn multiple_assignments() {
    check("a=1 b=2 c=$a$b; echo $a $b $c", "1 2 12\n", "", 0);
}

#[test]
fn assignment_no_split_no_glob() {
    check("x='a  *'; y=$x; echo \"$y\"", "a  *\n", "", 0);
}

#[test]
fn quote_removal_mixed() {
    check("echo 'a'\"b\"c\\d\"$HOME\"", "abcd/\n", "", 0);
}

#[test]
fn double_quote_backslash() {
    check("echo \"a\\nb\" \"a\\\\b\" \"\\$x\" \"\\`\" \"\\\"\"", "a\\nb a\\b $x ` \"\n", "", 0);
}

#[test]
fn ansi_c_quote() {
    check("echo $'a\\'b' $'\\x41\\u00e9'", "a'b A\\u00E9\n", "", 0);
}

#[test]
fn dollar_alone() {
    check("echo $ a$ \"$\" $'x'", "$ a$ $ x\n", "", 0);
}

#[test]
fn hash_not_comment_in_word() {
    check("echo a#b ${#} x#", "a#b 0 x#\n", "", 0);
}

// ----- third batch: script shapes agents write -----

#[test]
fn regex_unquoted_classes() {
    check("[[ 123 =~ ^[0-9]+$ ]] && echo num; [[ 'a b' =~ a\\ b ]] && echo sp; x=foo; [[ $x =~ (foo|bar) ]] && echo alt ${BASH_REMATCH[1]}; [[ ab =~ ^(a)(x)?b$ ]]; echo \"[${BASH_REMATCH[2]}]\"", "num\nsp\nalt foo\n[]\n", "", 0);
}

#[test]
fn string_building() {
    check("out=''; for w in a b c; do out+=\"$w,\"; done; echo \"${out%,}\"", "a,b,c\n", "", 0);
}

#[test]
fn array_accumulate() {
    check("arr=(); for i in 1 2 3; do arr+=(\"item $i\"); done; echo ${#arr[@]}; printf_missing=1; for x in \"${arr[@]}\"; do echo \"- $x\"; done", "3\n- item 1\n- item 2\n- item 3\n", "", 0);
}

#[test]
fn join_array_ifs() {
    check("arr=(a b c); (IFS=,; echo \"${arr[*]}\"); echo \"${arr[*]}\"", "a,b,c\na b c\n", "", 0);
}

#[test]
fn nested_cmdsub_quotes() {
    check("x=\"$(echo \"$(echo 'a  b')\")\"; echo \"$x\"", "a  b\n", "", 0);
}

#[test]
fn arith_in_condition() {
    check("n=7; if (( n % 2 == 1 )); then echo odd; fi; (( n > 5 && n < 10 )) && echo range", "odd\nrange\n", "", 0);
}

#[test]
fn ternary_and_assignment() {
    check("a=3; b=$(( a > 2 ? a * 2 : 0 )); echo $b; (( c = a + b )); echo $c", "6\n9\n", "", 0);
}

#[test]
fn string_contains() {
    check("s=foobar; [[ $s == *oba* ]] && echo contains; [[ $s != *xyz* ]] && echo lacks; case $s in *bar) echo endsbar;; esac", "contains\nlacks\nendsbar\n", "", 0);
}

#[test]
fn string_trim() {
    check(
        "s='  padded  '; t=\"${s#\"${s%%[![:space:]]*}\"}\"; t=\"${t%\"${t##*[![:space:]]}\"}\"; echo \"[$t]\"",
        "[padded]\n",
        "",
        0,
    );
}

#[test]
fn uppercase_var() {
    check("v=hello; echo ${v^^}; declare -u U=abc 2>/dev/null; echo ${v:0:1}", "HELLO\nh\n", "", 0);
}

#[test]
fn basename_dirname_param() {
    check(
        "p=/usr/local/bin/tool.sh; echo ${p##*/} ${p%/*} ${p##*.} $(f=${p##*/}; echo ${f%.*})",
        "tool.sh /usr/local/bin sh tool\n",
        "",
        0,
    );
}

#[test]
fn seq_with_brace_and_step() {
    check("for i in {0..20..5}; do echo -n \"$i \"; done; echo", "0 5 10 15 20 \n", "", 0);
}

#[test]
fn positional_star_in_func() {
    check("f() { echo \"$*\"; echo \"$@\"; echo $#; }; f 'a b' c", "a b c\na b c\n2\n", "", 0);
}

#[test]
fn special_chars_in_strings() {
    check("echo 'It'\\''s' \"a\\\"b\" 'x;y' 'p|q' \"\\$HOME\" '&&'", "It's a\"b x;y p|q $HOME &&\n", "", 0);
}

#[test]
fn glob_star_count() {
    check("set -- d/*; echo $#; set -- d/.*; echo $#", "3\n1\n", "", 0);
}

#[test]
fn arith_hex_octal_output() {
    check("echo $((16#ff)) $((0xFF)) $((0777)) $((2#1111))", "255 255 511 15\n", "", 0);
}

#[test]
fn negative_numbers() {
    check("x=-5; echo $((x * -1)) $(( -x )) $((x < 0))", "5 5 1\n", "", 0);
}

#[test]
fn big_numbers() {
    check("echo $((9223372036854775807 + 1)) $((1 << 62))", "-9223372036854775808 4611686018427387904\n", "", 0);
}

#[test]
fn arith_for_with_commas() {
    check("for ((i=0, j=10; i<3; i++, j--)); do echo $i $j; done", "0 10\n1 9\n2 8\n", "", 0);
}

#[test]
fn cmdsub_multiline_script() {
    check("x=$(\n  echo one\n  echo two\n); echo $x", "one two\n", "", 0);
}

#[test]
fn empty_defaults_at() {
    check("set --; echo \"[${@:-none}]\"; a=(); echo \"[${a[@]:-empty}]\"", "[none]\n[empty]\n", "", 0);
}

#[test]
fn arith_increment_array_elem() {
    check("a=(1 2); (( a[1]++ )); echo ${a[@]}; declare -A m; (( m[x] += 5 )); echo ${m[x]}", "1 3\n5\n", "", 0);
}

#[test]
fn dollar_brace_special() {
    check("set -- a b; echo ${#} ${#@} ${@: -1} ${!#}", "2 2 b b\n", "", 0);
}

#[test]
fn positional_beyond() {
    check("set -- a; echo \"[${5}]\" \"[${5:-d}]\"", "[] [d]\n", "", 0);
}

#[test]
fn arith_with_leading_zero_var() {
    check("x=08; echo $((10#$x)); y=010; echo $((y))", "8\n8\n", "", 0);
}

#[test]
fn arith_error_base() {
    check(
        "x=08; echo $((x)); echo after",
        "",
        "bash: line 1: 08: value too great for base (error token is \"08\")\n",
        1,
    );
}
