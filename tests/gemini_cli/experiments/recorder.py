"""A tiny Gemini API recorder for experiments (not a test): logs every request body, answers "ok".

usage: recorder.py LOGFILE PORTFILE [CALL_NAME]
Binds 127.0.0.1 on a free port, writes the port to PORTFILE, appends one JSON line per request
({"path", "body"}) to LOGFILE. With CALL_NAME the first streamed answer is a functionCall of it.
"""

import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOG, PORTFILE = sys.argv[1], sys.argv[2]
CALL = sys.argv[3] if len(sys.argv) > 3 else None
state = {"n": 0}


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):  # quiet
        pass

    def do_POST(self):
        size = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(size)
        try:
            data = json.loads(body)
        except ValueError:
            data = body.decode("utf-8", "replace")
        with open(LOG, "a", encoding="utf-8") as out:
            out.write(json.dumps({"path": self.path, "body": data}) + "\n")
        state["n"] += 1
        if ":generateContent" in self.path:
            text = json.dumps({"complexity_reasoning": "x", "complexity_score": 5})
            answer = {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP"}]}
            raw = json.dumps(answer).encode()
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)
            return
        if CALL and state.get("called") is None:
            state["called"] = True
            part = {"functionCall": {"name": CALL, "args": {}}}
        else:
            part = {"text": "ok"}
        event = {
            "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
        }
        raw = ("data: " + json.dumps(event) + "\r\n\r\n").encode()
        self.send_response(200)
        self.send_header("content-type", "text/event-stream")
        self.send_header("content-length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(PORTFILE, "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
