# env runs a command with extra or removed variables; printenv reads them.
export APP_MODE=dev
LOCAL_ONLY=1
env APP_MODE=prod printenv APP_MODE
printenv APP_MODE
printenv LOCAL_ONLY; echo "unexported: status $?"
env -u APP_MODE printenv APP_MODE; echo "removed: status $?"
env | grep '^APP_'
DEBUG=1 env | grep -c '^DEBUG=1$'
env -i GREETING=hi printenv
env -i A=1 B=2
env -- echo plain command
env -x 2>&1; echo "status $?"
