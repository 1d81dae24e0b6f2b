"""``toolscope capture``: a local model endpoint that records what every request carried.

Modules, by responsibility:

- ``reader``: reading a capture file (``toolscope.capture/1`` JSON Lines), whole or live;
- ``writer``: writing records, one flushed line per request; ``request_facts``: the tool
  facts of a request body per protocol; ``reply``: the protocol-neutral reply;
- ``wire_chat``, ``wire_responses``, ``wire_anthropic``, ``wire_errors``: each protocol's
  bytes, built from the official SDKs' types;
- ``app`` (routes, limits), ``scripted`` (``--replies``), ``proxy`` (``--upstream``),
  ``upstream_reply`` (tool calls read from a provider's reply), ``server`` (uvicorn in a
  thread), ``command`` (running ``-- COMMAND`` with the clients' base-URL variables);
- what the comparison reads: ``observed`` / ``observed_file`` (the recorded requests), and
  ``timeline`` (what changed between requests, for ``inspect --capture`` and ``report
  --capture``). The comparison itself is ``core.comparison``: this package knows no system.

Nothing here imports the CLI; the server modules import starlette/uvicorn/the SDKs, the
reader only pydantic (``inspect --capture`` loads it without the server).
"""
