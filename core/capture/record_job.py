"""Completing a request's record from its raw body: the tool facts, the kept text, a refusal.

The server hands over what it knows when the reply is done (``pending``: the record's
fields that do not come from the body) and the body's bytes; this reads the body and
returns the whole ``toolscope.capture/1`` record. It runs in the record worker process
(``record_worker``), or in the server's process when there is none.

``pending`` holds ``record()``'s keyword arguments except ``facts``, ``kept`` and
``error``, plus ``job``: ``protocol``, ``keep`` (``--keep-messages``), ``reply_text``
and ``check`` (proxy mode: the body was forwarded unchecked, so a malformed one is
recorded with ``error`` here), and ``facts`` (None, or the ``model`` and ``stream`` a
Gemini request's path says, over the body's).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .request_body import BadRequest, read_head
from .request_decode import decode_facts, loads
from .request_facts import system_and_messages
from .writer import record


def complete_record(pending: dict[str, Any], raw: bytes) -> dict[str, Any]:
    """The record of ``pending`` with the facts of its body ``raw``."""
    job = pending.pop("job")
    protocol = job["protocol"]
    refused = None
    body = raw
    if job["check"]:
        try:
            read_head(raw)
        except BadRequest as exc:
            refused = {"kind": exc.kind, "message": exc.message, "method": job["method"]}
            body = b"{}"
    kept = None
    if job["keep"]:
        system, messages = system_and_messages(protocol, loads(body))
        kept = {"system": system, "messages": messages, "reply_text": job["reply_text"]}
    if refused is not None and pending["reply"]["error"] is None:
        pending["reply"]["error"] = refused["message"]
    facts = decode_facts(protocol, body)
    if job.get("facts"):
        # Gemini: the model and streaming come from the path (``models/M:streamGenerateContent``).
        facts = replace(facts, **job["facts"])
    return record(**pending, facts=facts, kept=kept, error=refused)
