# A retry loop that waits between attempts, and sleep's own errors.
attempt=0
until [ -f build/ready ]; do
    attempt=$((attempt + 1))
    echo "attempt $attempt: not ready"
    [ $attempt -eq 2 ] && touch build/ready
    sleep 0.05
done
echo "ready after $attempt attempts"
sleep 0.01s 0m .02 && echo "summed sleep ok"
sleep 2>&1; echo "status $?"
sleep 5x 2>&1; echo "status $?"
sleep -1 2>&1; echo "status $?"
