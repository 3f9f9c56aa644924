"""The FastMCP server of the MCP benchmark (the mcp package's own, named
MCPServer in mcp 2.x): one tool, `add`, the same trivial work as the
fixture's (examples/mcp_fixture.rs), served over stdio."""

from mcp.server.mcpserver import MCPServer

server = MCPServer("fastmcp-bench")


@server.tool()
def add(a: int, b: int) -> str:
    """Add two integers."""
    return str(a + b)


if __name__ == "__main__":
    server.run("stdio")
