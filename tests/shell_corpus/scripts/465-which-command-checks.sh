# Checking for tools before using them.
for tool in sed sort awk no-such-tool; do
    if which "$tool" > /dev/null; then
        echo "$tool: $(which "$tool")"
    else
        echo "$tool: missing"
    fi
done
which grep no-such-tool; echo "status $?"
[ "$(which ls)" = "$(command -v ls)" ] && echo "which agrees with command -v"
which 2>&1; echo "status $?"
