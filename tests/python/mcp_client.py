"""The MCP server against the official MCP Python client.

Drives target/release/aikido-mcp and the fixture server
(examples/mcp_fixture.rs) with `mcp.Client` over stdio and Streamable HTTP,
and with raw pipes for what a client library never sends (malformed lines,
batches, requests before initialize, EOF). Each test is a function named
test_*; the last line printed is "mcp: N passed, N failed".

Run through tests/python/mcp.sh, which builds both programs and sets
AIKIDO_MCP_BIN and AIKIDO_MCP_FIXTURE.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.error
import urllib.request
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path

import anyio
from mcp import Client, MCPError, StdioServerParameters
from mcp import types

BIN = os.environ["AIKIDO_MCP_BIN"]
FIXTURE = os.environ["AIKIDO_MCP_FIXTURE"]
FILE_TOOLS = {"read_file", "write_file", "list_directory", "edit_file", "delete_path"}


def text_of(result: types.CallToolResult) -> str:
    assert len(result.content) == 1, result
    assert result.content[0].type == "text", result
    return result.content[0].text


@contextmanager
def folder():
    path = Path(tempfile.mkdtemp(prefix="aikido-mcp-test-"))
    (path / "hello.txt").write_text("hello from the host\n")
    (path / "sub").mkdir()
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def snapshot(path: Path) -> dict[str, bytes]:
    return {str(p.relative_to(path)): (p.read_bytes() if p.is_file() else b"/") for p in sorted(path.rglob("*"))}


def stdio(*args: str, env: dict[str, str] | None = None, program: str = BIN) -> StdioServerParameters:
    return StdioServerParameters(command=program, args=list(args), env=env)


def client(server, **kwargs) -> Client:
    kwargs.setdefault("cache", None)
    kwargs.setdefault("read_timeout_seconds", 30)
    return Client(server, **kwargs)


# ---------------------------------------------------------------- stdio, aikido-mcp


async def test_stdio_handshake_and_tools():
    # The client's default ("auto") probes server/discover and goes stateless
    # (2026-07-28); "legacy" runs the initialize handshake.
    for mode, version in [("auto", "2026-07-28"), ("legacy", "2025-11-25")]:
        with folder() as root:
            async with client(stdio("--root", str(root)), mode=mode) as c:
                assert c.protocol_version == version, (mode, c.protocol_version)
                assert c.server_info.name == "aikido-mcp"
                assert c.server_capabilities.tools is not None
                assert c.server_capabilities.tools.list_changed is True
                listing = await c.list_tools()
                names = {tool.name for tool in listing.tools}
                assert names == {"bash"} | FILE_TOOLS, names
                bash = next(tool for tool in listing.tools if tool.name == "bash")
                assert bash.input_schema["type"] == "object"
                assert bash.input_schema["required"] == ["command"]
                assert listing.next_cursor is None
                if mode == "legacy":
                    await c.send_ping()
                out = text_of(await c.call_tool("bash", {"command": "echo $((6 * 7))"}))
                assert out == "42\n[exit code: 0]", (mode, out)


async def test_stdio_calls_share_one_storage_and_one_shell():
    with folder() as root:
        async with client(stdio("--root", str(root))) as c:
            out = text_of(await c.call_tool("bash", {"command": "cat /hello.txt && cd sub && echo made > made.txt"}))
            assert out == "hello from the host\n[exit code: 0]", out
            # The shell kept its working directory; the file tools see the shell's file.
            out = text_of(await c.call_tool("bash", {"command": "pwd"}))
            assert out == "/sub\n[exit code: 0]", out
            out = text_of(await c.call_tool("read_file", {"path": "/sub/made.txt"}))
            assert "made" in out, out
            result = await c.call_tool("write_file", {"path": "notes/a.txt", "content": "from the tool\n"})
            assert not result.is_error, result
            assert (root / "notes" / "a.txt").read_text() == "from the tool\n"
            out = text_of(await c.call_tool("bash", {"command": "cat /notes/a.txt"}))
            assert out.startswith("from the tool\n"), out


async def test_stdio_errors():
    with folder() as root:
        async with client(stdio("--root", str(root))) as c:
            # An unknown tool is a protocol error (-32602) ...
            try:
                await c.call_tool("no_such_tool", {})
                raise AssertionError("an unknown tool must fail")
            except MCPError as error:
                assert error.code == -32602, error
                assert "unknown tool" in str(error), error
            # ... a tool's failure is a result with isError.
            result = await c.call_tool("read_file", {"path": "/missing.txt"})
            assert result.is_error, result
            assert "missing.txt" in text_of(result)
            result = await c.call_tool("bash", {})
            assert result.is_error, result
            assert text_of(result).startswith("aikido/tools: invalid tool arguments for tool \"bash\""), text_of(result)
            result = await c.call_tool("bash", {"command": 5})
            assert result.is_error, result
            # The server is still fine.
            assert text_of(await c.call_tool("bash", {"command": "echo ok"})) == "ok\n[exit code: 0]"


async def test_stdio_pagination():
    with folder() as root:
        async with client(stdio("--root", str(root), "--page-size", "4")) as c:
            first = await c.list_tools()
            assert len(first.tools) == 4 and first.next_cursor, first
            second = await c.list_tools(cursor=first.next_cursor)
            assert len(second.tools) == 2 and second.next_cursor is None, second
            names = [tool.name for tool in first.tools + second.tools]
            assert set(names) == {"bash"} | FILE_TOOLS and len(names) == 6, names
            try:
                await c.list_tools(cursor="not-a-cursor")
                raise AssertionError("an invalid cursor must fail")
            except MCPError as error:
                assert error.code == -32602, error


async def test_stdio_environment_is_clean():
    with folder() as root:
        env = {"AIKIDO_TEST_SECRET": "sk-do-not-leak", "OPENAI_API_KEY": "sk-nope"}
        async with client(stdio("--root", str(root), env=env)) as c:
            out = text_of(await c.call_tool("bash", {"command": "env; echo \"[$OPENAI_API_KEY]\""}))
            assert "sk-" not in out and "AIKIDO_TEST_SECRET" not in out, out
            lines = set(out.splitlines())
            for variable in ["HOME=/", "PATH=/usr/bin:/bin", "USER=aikido", "SHELL=/bin/bash"]:
                assert variable in lines, (variable, out)
            assert "[]" in lines, out


async def test_stdio_read_only():
    with folder() as root:
        before = snapshot(root)
        async with client(stdio("--root", str(root), "--read-only")) as c:
            out = text_of(await c.call_tool("bash", {"command": "echo x > /new.txt"}))
            assert "[exit code: 0]" not in out and "[exit code: " in out, out
            out = text_of(await c.call_tool("bash", {"command": "rm /hello.txt"}))
            assert "[exit code: 0]" not in out, out
            result = await c.call_tool("write_file", {"path": "/w.txt", "content": "x"})
            assert result.is_error, result
            result = await c.call_tool("delete_path", {"path": "/hello.txt"})
            assert result.is_error, result
            assert text_of(await c.call_tool("bash", {"command": "cat hello.txt"})).startswith("hello from the host")
        assert snapshot(root) == before


async def test_stdio_overlay_never_writes_back():
    with folder() as root:
        before = snapshot(root)
        async with client(stdio("--root", str(root), "--overlay")) as c:
            out = text_of(await c.call_tool("bash", {"command": "echo changed > hello.txt; echo new > new.txt; rm -r sub"}))
            assert out == "[exit code: 0]", out
            assert text_of(await c.call_tool("read_file", {"path": "new.txt"})).strip().endswith("new")
            out = text_of(await c.call_tool("bash", {"command": "cat hello.txt; ls"}))
            # tmp: the session's own saved-results folder, /tmp/aikido-bash,
            # is mounted over the storage (docs/MCP.md); it is never in DIR.
            assert out == "changed\nhello.txt\nnew.txt\ntmp\n[exit code: 0]", out
            assert snapshot(root) == before
        assert snapshot(root) == before


async def test_stdio_cancelling_a_long_sleep():
    with folder() as root:
        async with client(stdio("--root", str(root))) as c:
            started = time.monotonic()
            with anyio.move_on_after(0.5) as scope:
                await c.call_tool("bash", {"command": "sleep 8; echo never"})
            assert scope.cancelled_caught
            # Served at once while (or after) the sleep is stopped ...
            listing = await c.list_tools()
            assert len(listing.tools) == 6
            # ... and the session's shell is free again: the sleep stopped.
            out = text_of(await c.call_tool("bash", {"command": "echo after"}))
            assert out == "after\n[exit code: 0]", out
            elapsed = time.monotonic() - started
            assert elapsed < 4, f"the cancelled sleep kept the shell for {elapsed:.1f} s"


async def test_fixture_list_changed_and_concurrent_calls():
    changes = []

    async def on_message(message):
        if isinstance(message, types.ToolListChangedNotification):
            changes.append(message)

    async with client(stdio(program=FIXTURE), message_handler=on_message, mode="legacy") as c:
        pages = []
        cursor = None
        while True:
            page = await c.list_tools(cursor=cursor)
            pages.append(page)
            cursor = page.next_cursor
            if cursor is None:
                break
        assert [len(page.tools) for page in pages] == [100, 56], [len(page.tools) for page in pages]
        assert (await c.call_tool("add_tool", {"name": "fresh"})).is_error is False
        for _ in range(100):
            if changes:
                break
            await anyio.sleep(0.02)
        assert len(changes) >= 1, "no notifications/tools/list_changed after register"
        assert text_of(await c.call_tool("fresh", {})) == "fresh"
        seen = len(changes)
        assert text_of(await c.call_tool("remove_tool", {"name": "fresh"})) == "removed"
        for _ in range(100):
            if len(changes) > seen:
                break
            await anyio.sleep(0.02)
        assert len(changes) > seen, "no notifications/tools/list_changed after unregister"
        # Many calls at once, and a long one that does not block the rest.
        async with anyio.create_task_group() as group:
            results = {}

            async def add(n):
                results[n] = text_of(await c.call_tool("add", {"a": n, "b": 1}))

            for n in range(50):
                group.start_soon(add, n)
        assert results == {n: str(n + 1) for n in range(50)}
        started = time.monotonic()
        with anyio.move_on_after(0.3):
            await c.call_tool("sleep", {"seconds": 20})
        assert text_of(await c.call_tool("echo", {"text": "still here"})) == "still here"
        assert time.monotonic() - started < 3
        result = await c.call_tool("fail", {})
        assert result.is_error and text_of(result) == "fixture: this tool always fails"


async def listen_for_list_changed(c) -> None:
    """Through subscriptions/listen (2026-07-28): a change after add_tool and after remove_tool."""
    async with c.listen(tools_list_changed=True) as subscription:
        assert subscription.honored.tools_list_changed is True, subscription.honored
        events = []

        async def collect():
            async for event in subscription:
                events.append(event)

        async with anyio.create_task_group() as group:
            group.start_soon(collect)
            assert (await c.call_tool("add_tool", {"name": "fresh"})).is_error is False
            for _ in range(200):
                if events:
                    break
                await anyio.sleep(0.02)
            assert events, "no notifications/tools/list_changed on the listen stream after register"
            assert text_of(await c.call_tool("fresh", {})) == "fresh"
            seen = len(events)
            assert text_of(await c.call_tool("remove_tool", {"name": "fresh"})) == "removed"
            for _ in range(200):
                if len(events) > seen:
                    break
                await anyio.sleep(0.02)
            assert len(events) > seen, "no notifications/tools/list_changed on the listen stream after unregister"
            group.cancel_scope.cancel()


async def test_fixture_2026_listen_streams_over_stdio():
    async with client(stdio(program=FIXTURE)) as c:
        assert c.protocol_version == "2026-07-28", c.protocol_version
        await listen_for_list_changed(c)
        # Calls go on after the stream closed.
        assert text_of(await c.call_tool("echo", {"text": "after"})) == "after"


# ---------------------------------------------------------------- raw pipes


class Raw:
    """aikido-mcp (or the fixture) over raw pipes."""

    def __init__(self, *args: str, program: str = BIN):
        self.process = subprocess.Popen(
            [program, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )

    def send(self, data: bytes | str):
        if isinstance(data, str):
            data = data.encode()
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def request(self, message: dict | str) -> dict | list:
        self.send((message if isinstance(message, str) else json.dumps(message)) + "\n")
        return self.read()

    def read(self, timeout: float = 20) -> dict | list:
        ready, _, _ = select.select([self.process.stdout], [], [], timeout)
        assert ready, "no answer"
        line = self.process.stdout.readline()
        assert line.endswith(b"\n"), line
        return json.loads(line)

    def initialize(self, version: str = "2025-11-25") -> dict:
        reply = self.request(
            {"jsonrpc": "2.0", "id": 0, "method": "initialize",
             "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}
        )
        self.send('{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
        return reply

    def close(self) -> tuple[int, bytes, bytes]:
        out, err = self.process.communicate(timeout=20)
        return self.process.returncode, out, err


MODERN_META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
               "io.modelcontextprotocol/clientCapabilities": {},
               "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"}}


def test_raw_requests_before_initialize_and_discover():
    with folder() as root:
        raw = Raw("--root", str(root))
        reply = raw.request({"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": MODERN_META}})
        result = reply["result"]
        assert reply["id"] == 1 and result["resultType"] == "complete", reply
        assert result["supportedVersions"][0] == "2026-07-28" and "2025-11-25" in result["supportedVersions"], result
        assert result["capabilities"] == {"tools": {"listChanged": True}}, result
        assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "aikido-mcp", result
        # A version the server does not serve: -32022 naming what it does.
        reply = raw.request({"jsonrpc": "2.0", "id": 11, "method": "tools/list",
                             "params": {"_meta": {**MODERN_META, "io.modelcontextprotocol/protocolVersion": "2031-01-01"}}})
        assert reply["error"]["code"] == -32022, reply
        assert reply["error"]["data"] == {"supported": result["supportedVersions"], "requested": "2031-01-01"}, reply
        # A stateless call needs no initialize.
        reply = raw.request({"jsonrpc": "2.0", "id": 12, "method": "tools/call",
                             "params": {"name": "bash", "arguments": {"command": "echo stateless"}, "_meta": MODERN_META}})
        assert reply["result"]["content"][0]["text"] == "stateless\n[exit code: 0]", reply
        assert reply["result"]["resultType"] == "complete", reply
        # Without _meta, the handshake's rules apply.
        reply = raw.request({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
        assert reply["error"]["code"] == -32600 and "initialize" in reply["error"]["message"], reply
        reply = raw.request({"jsonrpc": "2.0", "id": 3, "method": "ping"})
        assert reply == {"jsonrpc": "2.0", "id": 3, "result": {}}, reply
        assert raw.initialize()["result"]["protocolVersion"] == "2025-11-25"
        for method in ["resources/list", "prompts/list", "completion/complete"]:
            reply = raw.request({"jsonrpc": "2.0", "id": 4, "method": method})
            assert reply["error"]["code"] == -32601, reply
            reply = raw.request({"jsonrpc": "2.0", "id": 5, "method": method, "params": {"_meta": MODERN_META}})
            assert reply["error"]["code"] == -32601, reply
        code, out, _ = raw.close()
        assert code == 0 and out == b"", (code, out)


def test_raw_malformed_lines():
    with folder() as root:
        raw = Raw("--root", str(root))
        raw.initialize()
        assert raw.request("{not json")["error"]["code"] == -32700
        assert raw.request("\xff\xfe garbage")["error"]["code"] == -32700
        assert raw.request("[1,2")["error"]["code"] == -32700
        assert raw.request('"just a string"')["error"]["code"] == -32600
        assert raw.request('{"jsonrpc":"2.0","id":true,"method":"ping"}')["error"]["code"] == -32600
        reply = raw.request('{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"bash","arguments":"echo hi"}}')
        assert reply["error"]["code"] == -32602, reply
        reply = raw.request('{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":42}}')
        assert reply["error"]["code"] == -32602, reply
        # Blank lines are skipped; a line past 16 MiB is refused and skipped.
        raw.send("\n\n")
        reply = raw.request('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"bash","arguments":{"command":"'
                            + "x" * (17 << 20) + '"}}}')
        assert reply["error"]["code"] == -32600 and "16777216" in reply["error"]["message"], reply["error"]
        reply = raw.request({"jsonrpc": "2.0", "id": 8, "method": "tools/call",
                             "params": {"name": "bash", "arguments": {"command": "echo fine"}}})
        assert reply["result"]["content"][0]["text"] == "fine\n[exit code: 0]", reply
        code, out, err = raw.close()
        assert code == 0 and out == b"", (code, out, err)


def test_raw_batches_follow_the_version():
    batch = json.dumps([
        {"jsonrpc": "2.0", "id": 1, "method": "ping"},
        {"jsonrpc": "2.0", "method": "notifications/progress", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "bash", "arguments": {"command": "echo b"}}},
    ])
    with folder() as root:
        raw = Raw("--root", str(root))
        raw.initialize("2025-03-26")
        reply = raw.request(batch)
        assert isinstance(reply, list) and [item["id"] for item in reply] == [1, 2], reply
        assert reply[1]["result"]["content"][0]["text"] == "b\n[exit code: 0]"
        raw.close()
        raw = Raw("--root", str(root))
        raw.initialize("2025-06-18")
        reply = raw.request(batch)
        assert reply["error"]["code"] == -32600 and "batch" in reply["error"]["message"], reply
        raw.close()


def test_raw_eof_answers_then_exits_zero():
    with folder() as root:
        lines = [json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                             "params": {"protocolVersion": "2024-11-05", "capabilities": {}}})]
        for n in range(1, 21):
            lines.append(json.dumps({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                                     "params": {"name": "bash", "arguments": {"command": f"echo {n}"}}}))
        done = subprocess.run([BIN, "--root", str(root)], input="\n".join(lines) + "\n", capture_output=True,
                              text=True, timeout=30)
        assert done.returncode == 0, done
        replies = [json.loads(line) for line in done.stdout.splitlines()]
        assert sorted(reply["id"] for reply in replies) == list(range(21)), replies
        assert "aikido-mcp" in done.stderr
        # Nothing at all on stdin: exit 0 at once.
        done = subprocess.run([BIN, "--root", str(root)], input="", capture_output=True, timeout=10)
        assert done.returncode == 0 and done.stdout == b"", done


def test_raw_client_vanishes_mid_call():
    with folder() as root:
        raw = Raw("--root", str(root))
        raw.initialize()
        raw.send('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"bash","arguments":{"command":"sleep 3"}}}\n')
        raw.process.stdout.close()
        raw.process.stdin.close()
        assert raw.process.wait(timeout=15) == 0


def test_cli_arguments():
    with folder() as root:
        for args, fragment in [([], "--root"), (["--root", str(root / "missing")], "missing"),
                               (["--root", str(root), "--read-only", "--overlay"], "together"),
                               (["--bogus"], "unknown argument")]:
            done = subprocess.run([BIN, *args], capture_output=True, text=True, timeout=10, stdin=subprocess.DEVNULL)
            assert done.returncode != 0 and done.stdout == "" and fragment in done.stderr, (args, done)
        done = subprocess.run([BIN, "--help"], capture_output=True, text=True, timeout=10)
        assert done.returncode == 0
        for fragment in ["--root", "--read-only", "--overlay", "--listen", "Mcp-Session-Id", "HOME=/", "mcpServers"]:
            assert fragment in done.stdout, fragment



# ---------------------------------------------------------------- Streamable HTTP


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class HttpServer:
    """aikido-mcp --listen on a free port, stopped with SIGTERM."""

    def __init__(self, *args: str):
        self._start([BIN, *args], "the HTTP server")

    def _start(self, command: list[str], what: str):
        """Runs `command --listen` on a free port; returns once it accepts."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.process = subprocess.Popen([*command, "--listen", f"127.0.0.1:{self.port}"],
                                        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.05)
        raise AssertionError(f"{what} did not start")

    def post(self, body: bytes | str | dict, headers: dict[str, str] | None = None, method: str = "POST"):
        if isinstance(body, dict):
            body = json.dumps(body)
        if isinstance(body, str):
            body = body.encode()
        all_headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        all_headers.update(headers or {})
        request = urllib.request.Request(self.url, data=body if method == "POST" else None, headers=all_headers,
                                         method=method)
        try:
            with urllib.request.urlopen(request, timeout=20) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def initialize(self) -> str:
        status, headers, body = self.post({"jsonrpc": "2.0", "id": 0, "method": "initialize",
                                           "params": {"protocolVersion": "2025-06-18", "capabilities": {}}})
        assert status == 200, (status, body)
        return headers["Mcp-Session-Id"]

    def stop(self) -> tuple[int, float]:
        started = time.monotonic()
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=10)
        return code, time.monotonic() - started


class HttpFixture(HttpServer):
    """The fixture server (tools added and removed at run time) over HTTP."""

    def __init__(self):
        self._start([FIXTURE], "the fixture")

    def stop(self):
        self.process.kill()
        self.process.wait()


def open_stream(port: int, request: bytes) -> socket.socket:
    """Sends a raw HTTP request; returns the socket to read the stream from."""
    stream = socket.create_connection(("127.0.0.1", port), timeout=10)
    stream.sendall(request)
    return stream


def read_until(stream: socket.socket, marker: bytes, limit: float = 10) -> bytes:
    data = b""
    deadline = time.monotonic() + limit
    while marker not in data:
        assert time.monotonic() < deadline, data
        chunk = stream.recv(65536)
        assert chunk, data
        data += chunk
    return data


@asynccontextmanager
async def http_server(*args: str):
    server = HttpServer(*args)
    try:
        yield server
    finally:
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait()


async def test_http_client_handshake_calls_errors_pagination():
    with folder() as root:
        async with http_server("--root", str(root), "--page-size", "4") as server:
            async with client(server.url, mode="legacy") as c:
                assert c.protocol_version == "2025-11-25", c.protocol_version
                assert c.server_info.name == "aikido-mcp"
                first = await c.list_tools()
                assert len(first.tools) == 4 and first.next_cursor
                second = await c.list_tools(cursor=first.next_cursor)
                assert {tool.name for tool in first.tools + second.tools} == {"bash"} | FILE_TOOLS
                out = text_of(await c.call_tool("bash", {"command": "cd sub; echo hi > f.txt; cat f.txt"}))
                assert out == "hi\n[exit code: 0]", out
                assert (root / "sub" / "f.txt").read_text() == "hi\n"
                assert text_of(await c.call_tool("bash", {"command": "pwd"})) == "/sub\n[exit code: 0]"
                result = await c.call_tool("read_file", {"path": "/nope"})
                assert result.is_error
                try:
                    await c.call_tool("nope", {})
                    raise AssertionError("an unknown tool must fail")
                except MCPError as error:
                    assert error.code == -32602, error
                try:
                    await c.list_tools(cursor="bogus")
                    raise AssertionError("an invalid cursor must fail")
                except MCPError as error:
                    assert error.code == -32602, error
            # Each session has its own shell.
            async with client(server.url, mode="legacy") as other:
                assert text_of(await other.call_tool("bash", {"command": "pwd"})) == "/\n[exit code: 0]"
            code, seconds = server.stop()
            assert code == 0 and seconds < 5, (code, seconds)


async def test_http_2026_stateless_requests():
    with folder() as root:
        async with http_server("--root", str(root), "--page-size", "4") as server:
            async with client(server.url) as c:
                assert c.protocol_version == "2026-07-28", c.protocol_version
                assert c.server_info.name == "aikido-mcp"
                first = await c.list_tools()
                assert len(first.tools) == 4 and first.next_cursor
                second = await c.list_tools(cursor=first.next_cursor)
                assert {tool.name for tool in first.tools + second.tools} == {"bash"} | FILE_TOOLS
                out = text_of(await c.call_tool("bash", {"command": "echo hi > /f.txt; cat /f.txt"}))
                assert out == "hi\n[exit code: 0]", out
                # Stateless: the files stay (DIR), each request gets a fresh shell.
                assert (root / "f.txt").read_text() == "hi\n"
                try:
                    await c.call_tool("nope", {})
                    raise AssertionError("an unknown tool must fail")
                except MCPError as error:
                    assert error.code == -32602, error
            code, seconds = server.stop()
            assert code == 0 and seconds < 5, (code, seconds)


async def test_http_list_changed_reaches_clients_of_both_eras():
    server = HttpFixture()
    try:
        # 2026-07-28: subscriptions/listen, answered with an SSE stream.
        async with client(server.url) as c:
            assert c.protocol_version == "2026-07-28", c.protocol_version
            await listen_for_list_changed(c)
        # 2025-11-25: the GET /mcp stream of the session.
        changes = []

        async def on_message(message):
            if isinstance(message, types.ToolListChangedNotification):
                changes.append(message)

        async with client(server.url, mode="legacy", message_handler=on_message) as c:
            assert c.protocol_version == "2025-11-25", c.protocol_version
            # Let the client's GET stream open before the change.
            await anyio.sleep(0.5)
            assert (await c.call_tool("add_tool", {"name": "fresh2"})).is_error is False
            for _ in range(200):
                if changes:
                    break
                await anyio.sleep(0.02)
            assert changes, "no notifications/tools/list_changed over the GET stream"
            # POST answers are plain JSON, which the client takes.
            assert text_of(await c.call_tool("fresh2", {})) == "fresh2"
    finally:
        server.stop()


async def test_http_cancelling_a_long_sleep():
    with folder() as root:
        async with http_server("--root", str(root)) as server:
            async with client(server.url, mode="legacy") as c:
                started = time.monotonic()
                with anyio.move_on_after(0.5) as scope:
                    await c.call_tool("bash", {"command": "sleep 8; echo never"})
                assert scope.cancelled_caught
                assert len((await c.list_tools()).tools) == 6
                out = text_of(await c.call_tool("bash", {"command": "echo after"}))
                assert out == "after\n[exit code: 0]", out
                assert time.monotonic() - started < 4
            server.stop()


def test_http_raw_rules():
    with folder() as root:
        server = HttpServer("--root", str(root), "--overlay")
        try:
            session = server.initialize()
            with_session = {"Mcp-Session-Id": session}
            # A failed initialize opens no session.
            status, headers, body = server.post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}})
            assert json.loads(body)["error"]["code"] == -32602 and "Mcp-Session-Id" not in headers, (headers, body)
            # A notification: 202, no body.
            status, _, body = server.post({"jsonrpc": "2.0", "method": "notifications/initialized"}, with_session)
            assert (status, body) == (202, b""), (status, body)
            status, _, body = server.post({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, with_session)
            assert status == 200 and len(json.loads(body)["result"]["tools"]) == 6
            # A foreign Origin: 403; a local one is fine.
            status, _, _ = server.post({"jsonrpc": "2.0", "id": 2, "method": "ping"},
                                       {**with_session, "Origin": "http://evil.example"})
            assert status == 403, status
            status, _, _ = server.post({"jsonrpc": "2.0", "id": 2, "method": "ping"},
                                       {**with_session, "Origin": f"http://localhost:{server.port}"})
            assert status == 200, status
            # No session: 400 for tools; an unknown session: 404; server/discover: its result.
            status, _, _ = server.post({"jsonrpc": "2.0", "id": 3, "method": "tools/list"})
            assert status == 400, status
            status, _, _ = server.post({"jsonrpc": "2.0", "id": 3, "method": "tools/list"}, {"Mcp-Session-Id": "nope"})
            assert status == 404, status
            status, _, body = server.post({"jsonrpc": "2.0", "id": 4, "method": "server/discover", "params": {}})
            assert json.loads(body)["result"]["supportedVersions"][0] == "2026-07-28", (status, body)
            # Malformed JSON: a JSON-RPC parse error.
            status, _, body = server.post("{oops", with_session)
            assert json.loads(body)["error"]["code"] == -32700, body
            # An unsupported protocol version header: 400.
            status, _, _ = server.post({"jsonrpc": "2.0", "id": 5, "method": "ping"},
                                       {**with_session, "MCP-Protocol-Version": "1999-01-01"})
            assert status == 400, status
            # Too large: 413.
            status, _, _ = server.post(b"[" + b" " * (17 << 20) + b"]", with_session)
            assert status == 413, status
            # GET without a session: 400; with an unknown one: 404; PUT: 405.
            status, _, _ = server.post(b"", {}, method="GET")
            assert status == 400, status
            status, _, _ = server.post(b"", {"Mcp-Session-Id": "nope"}, method="GET")
            assert status == 404, status
            status, headers, _ = server.post(b"", with_session, method="PUT")
            assert status == 405 and "POST" in headers.get("Allow", ""), (status, headers)
            # GET with the session: an SSE stream (its keep-alive and events come later).
            stream = open_stream(server.port, f"GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                                              f"Mcp-Session-Id: {session}\r\n\r\n".encode())
            head = read_until(stream, b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 200") and b"text/event-stream" in head, head
            stream.close()
            # 2026-07-28 headers must match the body: 400 HeaderMismatch (-32020).
            modern = {"jsonrpc": "2.0", "id": 20, "method": "tools/call",
                      "params": {"name": "bash", "arguments": {"command": "echo m"}, "_meta": MODERN_META}}
            good = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "bash"}
            status, headers, body = server.post(modern, good)
            assert status == 200 and "Mcp-Session-Id" not in headers, (status, headers, body)
            assert json.loads(body)["result"]["content"][0]["text"] == "m\n[exit code: 0]", body
            status, _, body = server.post(modern, {**good, "Mcp-Name": "=?base64?YmFzaA==?="})
            assert status == 200, (status, body)
            for wrong in [{"Mcp-Name": "read_file"}, {"Mcp-Method": "tools/list"}, {"Mcp-Name": None},
                          {"MCP-Protocol-Version": None}, {"MCP-Protocol-Version": "2025-11-25"}]:
                headers = {k: v for k, v in {**good, **wrong}.items() if v is not None}
                status, _, body = server.post(modern, headers)
                assert status == 400 and json.loads(body)["error"]["code"] == -32020, (wrong, status, body)
            # An unsupported version: 400 with -32022; an unknown method: 404 with -32601.
            old = {**modern, "params": {**modern["params"], "_meta": {**MODERN_META, "io.modelcontextprotocol/protocolVersion": "2031-01-01"}}}
            status, _, body = server.post(old, {**good, "MCP-Protocol-Version": "2031-01-01"})
            assert status == 400 and json.loads(body)["error"]["code"] == -32022, (status, body)
            unknown = {"jsonrpc": "2.0", "id": 21, "method": "prompts/list", "params": {"_meta": MODERN_META}}
            status, _, body = server.post(unknown, {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "prompts/list"})
            assert status == 404 and json.loads(body)["error"]["code"] == -32601, (status, body)
            # DELETE ends the session.
            status, _, _ = server.post(b"", with_session, method="DELETE")
            assert status in (200, 204), status
            status, _, _ = server.post({"jsonrpc": "2.0", "id": 6, "method": "ping"}, with_session)
            assert status == 404, status
            # The overlay never wrote back.
            other = {"Mcp-Session-Id": server.initialize()}
            status, _, body = server.post({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {
                "name": "bash", "arguments": {"command": "echo x > hello.txt; cat hello.txt"}}}, other)
            assert json.loads(body)["result"]["content"][0]["text"] == "x\n[exit code: 0]", body
        finally:
            code, seconds = server.stop()
        assert code == 0 and seconds < 5, (code, seconds)
        assert (root / "hello.txt").read_text() == "hello from the host\n"


def test_http_thousands_of_sessions_stay_bounded():
    with folder() as root:
        server = HttpServer("--root", str(root))
        try:
            first = server.initialize()
            status, _, _ = server.post({"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"Mcp-Session-Id": first})
            assert status == 200
            for _ in range(1100):
                server.initialize()
            # The oldest session was dropped (at most 1024 are kept); the server answers.
            status, _, _ = server.post({"jsonrpc": "2.0", "id": 1, "method": "ping"}, {"Mcp-Session-Id": first})
            assert status == 404, status
            latest = server.initialize()
            status, _, body = server.post({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
                "name": "bash", "arguments": {"command": "echo alive"}}}, {"Mcp-Session-Id": latest})
            assert json.loads(body)["result"]["content"][0]["text"] == "alive\n[exit code: 0]"
            rss_kib = int(Path(f"/proc/{server.process.pid}/status").read_text().split("VmRSS:")[1].split()[0])
            assert rss_kib < 200_000, f"{rss_kib} KiB resident after 1100 sessions"
        finally:
            server.stop()


def test_http_thousands_of_stateless_requests_stay_bounded():
    """2026-07-28 requests have no session: each runs in a fresh one (a fresh shell); memory stays bounded."""
    with folder() as root:
        server = HttpServer("--root", str(root))
        try:
            headers = {"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "bash"}
            for n in range(1500):
                status, _, body = server.post({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {
                    "name": "bash", "arguments": {"command": f"X={n}; echo $X"}, "_meta": MODERN_META}}, headers)
                assert status == 200 and json.loads(body)["result"]["content"][0]["text"] == f"{n}\n[exit code: 0]", body
            rss_kib = int(Path(f"/proc/{server.process.pid}/status").read_text().split("VmRSS:")[1].split()[0])
            assert rss_kib < 200_000, f"{rss_kib} KiB resident after 1500 stateless calls"
        finally:
            code, _ = server.stop()
        assert code == 0


def test_http_streams_end_with_the_server():
    """An open subscriptions/listen stream is acknowledged, then closed with its result at SIGTERM; 9 streams: 503."""
    with folder() as root:
        server = HttpServer("--root", str(root))
        streams = []
        try:
            body = json.dumps({"jsonrpc": "2.0", "id": "sub-1", "method": "subscriptions/listen",
                               "params": {"notifications": {"toolsListChanged": True}, "_meta": MODERN_META}}).encode()
            head = (b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                    b"Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
                    b"Mcp-Method: subscriptions/listen\r\n" + f"Content-Length: {len(body)}\r\n\r\n".encode())
            for _ in range(8):
                stream = open_stream(server.port, head + body)
                data = read_until(stream, b"notifications/subscriptions/acknowledged")
                assert b"text/event-stream" in data and b'"toolsListChanged":true' in data, data
                streams.append((stream, data))
            # The ninth: the server is at its bound (8 streams).
            status, headers, reply = server.post(body, {"MCP-Protocol-Version": "2026-07-28",
                                                         "Mcp-Method": "subscriptions/listen"})
            assert status == 503 and headers.get("Retry-After") == "1", (status, headers, reply)
            # Plain requests are still served.
            status, _, _ = server.post({"jsonrpc": "2.0", "id": 1, "method": "ping"})
            assert status == 200, status
        finally:
            code, seconds = server.stop()
        assert code == 0 and seconds < 5, (code, seconds)
        stream, data = streams[0]
        data += read_until(stream, b'"resultType":"complete"')
        assert b'"id":"sub-1"' in data, data


def test_http_client_vanishes_mid_call():
    """A client that closes its connection during a call: the server goes on serving others, and stops cleanly."""
    with folder() as root:
        server = HttpServer("--root", str(root))
        try:
            session = server.initialize()
            body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                               "params": {"name": "bash", "arguments": {"command": "sleep 2; echo late"}}}).encode()
            for _ in range(3):
                stream = open_stream(server.port, b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                                     + f"Mcp-Session-Id: {session}\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
                stream.close()
            # A half-sent body, then gone.
            stream = open_stream(server.port, b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{\"jsonrpc\"")
            stream.close()
            started = time.monotonic()
            other = server.initialize()
            status, _, reply = server.post({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {
                "name": "bash", "arguments": {"command": "echo alive"}}}, {"Mcp-Session-Id": other})
            assert json.loads(reply)["result"]["content"][0]["text"] == "alive\n[exit code: 0]", reply
            assert time.monotonic() - started < 1.5, "a vanished client's call held up another session"
        finally:
            code, seconds = server.stop()
        assert code == 0 and seconds < 5, (code, seconds)


def test_http_listen_refuses_remote_addresses():
    with folder() as root:
        done = subprocess.run([BIN, "--root", str(root), "--listen", "0.0.0.0:0"], capture_output=True, text=True,
                              timeout=10)
        assert done.returncode != 0 and "--allow-remote" in done.stderr, done



def test_readme_client_configuration():
    """The README's client configuration block is valid JSON that starts aikido-mcp with a --root."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("## MCP:", 1)[1]
    block = section.split("```json\n", 1)[1].split("```", 1)[0]
    config = json.loads(block)["mcpServers"]["aikido"]
    assert config["command"].endswith("aikido-mcp"), config
    args = config["args"]
    assert args[0] == "--root" and args[2] in ("--overlay", "--read-only"), args
    with folder() as root:
        args = [str(root) if arg == args[1] else arg for arg in args]
        done = subprocess.run([BIN, *args], input="", capture_output=True, timeout=10)
        assert done.returncode == 0 and done.stdout == b"", done


# ---------------------------------------------------------------- runner


def main() -> int:
    selected = sys.argv[1:]
    tests = [(name, function) for name, function in globals().items()
             if name.startswith("test_") and callable(function) and (not selected or any(s in name for s in selected))]
    passed = failed = 0
    for name, function in tests:
        started = time.monotonic()
        try:
            if inspect.iscoroutinefunction(function):
                anyio.run(function)
            else:
                function()
            passed += 1
            print(f"ok   {name} ({time.monotonic() - started:.1f} s)", flush=True)
        except BaseException:  # noqa: BLE001 - report every failure, go on
            failed += 1
            print(f"FAIL {name}", flush=True)
            traceback.print_exc()
    print(f"mcp: {passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
