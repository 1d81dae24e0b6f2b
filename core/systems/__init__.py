"""The modelled systems, one package each: AgentWorks, AgentScope (1.x and 2.x), Claude Code, Codex.

Each package reads its system's own files and decides every stage of a tool's path in that
system's order, naming the file, key and entry that decided it. ``coding_cli`` holds what the
coding-agent CLIs share (reading their files, listing their servers' tools, how they offer
MCP tools). Nothing below this package (capture, MCP, schemas, inputs, outputs, model, text)
knows any system; the comparison with a capture and the reports sit above it.
"""
