"""``toolscope serve``'s address rules (``cli/serve_guard.py``) for the binds a test cannot make:
a LAN address is only itself, every-address binds are also reached on loopback, port 80 is
also written without the port. The served behaviour is tests/hostile/test_hostile_serve.py."""

from __future__ import annotations

from toolscope.cli.serve_guard import allowed_hosts, refusal


def test_a_lan_address_is_only_itself() -> None:
    assert allowed_hosts("192.168.1.5", 8000) == {"192.168.1.5:8000"}


def test_loopback_and_every_address_binds_take_the_loopback_spellings() -> None:
    loopback = {"127.0.0.1:8000", "localhost:8000", "[::1]:8000"}
    assert allowed_hosts("127.0.0.1", 8000) == loopback
    assert allowed_hosts("::1", 8000) == loopback
    assert allowed_hosts("0.0.0.0", 8000) == loopback | {"0.0.0.0:8000"}
    assert allowed_hosts("::", 8000) == loopback | {"[::]:8000"}
    assert allowed_hosts("127.0.0.1", 80) == {"127.0.0.1:80", "localhost:80", "[::1]:80"} | {
        "127.0.0.1",
        "localhost",
        "[::1]",
    }


def test_refusals_name_what_was_wrong_and_clip_it() -> None:
    allowed = allowed_hosts("127.0.0.1", 8000)
    url = "http://127.0.0.1:8000"
    assert refusal(["localhost:8000"], ["http://127.0.0.1:8000"], True, allowed, url) is None
    assert refusal(["localhost:8000"], [], False, allowed, url) is None  # typed in the address bar
    assert "2 Host headers" in (refusal(["a", "b"], [], False, allowed, url) or "")
    assert "2 Origin headers" in (refusal(["localhost:8000"], ["x", "y"], False, allowed, url) or "")
    long = refusal(["x" * 5000], [], False, allowed, url) or ""
    assert len(long) < 300 and "…" in long
    lan = allowed_hosts("192.168.1.5", 8000)
    assert refusal(["localhost:8000"], [], False, lan, "http://192.168.1.5:8000") is not None
