"""The MCP benchmark: tools/call over stdio, pipelined, against libaikido's
server (examples/mcp_fixture.rs) and a FastMCP server doing the same work
(benches/mcp_fastmcp_server.py), in the same run; and the latency of one
small call at a time. Prints tab-separated `name<TAB>value` lines for
scripts/bench.sh.

Usage: mcp_bench.py FIXTURE_BINARY
"""

import json
import os
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def start(command):
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    return process


def send(process, data):
    process.stdin.write(data)
    process.stdin.flush()


def line(message):
    return (json.dumps(message, separators=(",", ":")) + "\n").encode()


def handshake(process):
    send(process, line({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                                   "clientInfo": {"name": "bench", "version": "1"}}}))
    reply = json.loads(process.stdout.readline())
    assert reply["result"]["protocolVersion"] == "2025-06-18", reply
    send(process, line({"jsonrpc": "2.0", "method": "notifications/initialized"}))


def call(id_, n):
    return line({"jsonrpc": "2.0", "id": id_, "method": "tools/call",
                 "params": {"name": "add", "arguments": {"a": n, "b": 1}}})


def pipelined(command, count):
    """Calls per second with every request written at once, a thread writing
    while this one reads."""
    process = start(command)
    handshake(process)
    requests = b"".join(call(i, i) for i in range(1, count + 1))
    started = time.perf_counter()
    writer = threading.Thread(target=send, args=(process, requests))
    writer.start()
    seen = 0
    while seen < count:
        reply = process.stdout.readline()
        assert reply, "the server closed its output"
        message = json.loads(reply)
        if "id" in message:
            text = message["result"]["content"][0]["text"]
            assert text == str(message["id"] + 1), message
            seen += 1
    elapsed = time.perf_counter() - started
    writer.join()
    process.stdin.close()
    process.wait(timeout=30)
    return count / elapsed


def latencies(command, count):
    """Round-trip times of one call at a time, in microseconds, sorted."""
    process = start(command)
    handshake(process)
    times = []
    for i in range(1, count + 1):
        started = time.perf_counter()
        send(process, call(i, i))
        reply = json.loads(process.stdout.readline())
        times.append((time.perf_counter() - started) * 1e6)
        assert reply["id"] == i, reply
    process.stdin.close()
    process.wait(timeout=30)
    times.sort()
    return times


def main():
    fixture = [sys.argv[1]]
    fastmcp = [sys.executable, os.path.join(HERE, "mcp_fastmcp_server.py")]
    rounds = 3
    aikido = sorted(pipelined(fixture, 50_000) for _ in range(rounds))[rounds // 2]
    fast = sorted(pipelined(fastmcp, 2_000) for _ in range(rounds))[rounds // 2]
    times = latencies(fixture, 5_000)
    fast_times = latencies(fastmcp, 500)
    print(f"aikido_calls_per_s\t{aikido:.0f}")
    print(f"fastmcp_calls_per_s\t{fast:.0f}")
    print(f"ratio\t{aikido / fast:.1f}")
    print(f"p50_us\t{times[len(times) // 2]:.1f}")
    print(f"p99_us\t{times[int(len(times) * 0.99)]:.1f}")
    print(f"fastmcp_p99_us\t{fast_times[int(len(fast_times) * 0.99)]:.1f}")


if __name__ == "__main__":
    main()
