# declare -p with attribute flags lists only the variables that have them;
# declare alone lists as set does; local alone lists the function's own.
v_plain=1
readonly v_ro=2
export v_ex=3
declare -n v_ref=v_plain
declare -i v_int=4
f() {
  local v_loc=5 v_loc2='a b'
  echo '[local]'; local
  echo '[declare -pr]'; declare -pr | grep ' v_'
  echo '[declare -px]'; declare -px | grep ' v_'
  echo '[declare -pn]'; declare -pn | grep ' v_'
  echo '[declare -pi]'; declare -pi | grep ' v_'
  echo '[declare]'; declare | grep '^v_'
}
f
g() { echo in g; }
declare | grep -A3 '^g ()'
