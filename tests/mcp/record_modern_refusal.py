"""Record what a real modern-only server (``era_server.py modern``, the SDK's own classes)
answers to the ``initialize`` an mcp 1.x client sends: ``recorded/modern_only_refusal.json``.

The AgentScope 2.0.6 and 1.x lanes run mcp < 2, which cannot run that server; they replay
this recording (``replay_server.py``) to test the reason discovery gives. Run with mcp >= 2:
``python tests/mcp/record_modern_refusal.py``; ``test_mcp_eras.py`` checks it is still true.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "recorded" / "modern_only_refusal.json"

# The first request of an mcp 1.x ClientSession (1.27: protocol 2025-11-25, no capabilities).
REQUEST = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "mcp", "version": "0.1.0"},
    },
}


def ask(request: dict) -> dict:
    """Send one request to a fresh modern-only server; its answer."""
    server = subprocess.run(
        [sys.executable, str(HERE / "era_server.py"), "modern"],
        input=json.dumps(request) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    return json.loads(server.stdout.splitlines()[0])


def main() -> None:
    OUT.parent.mkdir(exist_ok=True)
    recording = {"request": REQUEST, "response": ask(REQUEST)}
    OUT.write_text(json.dumps(recording, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
