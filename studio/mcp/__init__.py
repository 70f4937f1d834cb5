"""`studio mcp`: the race-preflight engine as MCP tools for an agent, over stdio, in named browser contexts."""
