"""MCP config loading: protocol inference, the _user.json override, errors, redaction."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolscope.core.mcp.config import infer_protocol, load_config, user_override_path
from toolscope.core.mcp.redact import MASK, redact_args, redact_url, scrub, secret_values
from toolscope.core.mcp.transports import launch_summary
from toolscope.core.model.errors import InputError


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (None, "stdio"),
        ("", "stdio"),
        ("https://search.parallel.ai/mcp", "http"),
        ("http://127.0.0.1:8000/mcp", "http"),
        ("http://127.0.0.1:8000/sse", "sse"),
        ("https://x.example/sse/events", "sse"),
        ("ws://x.example/mcp", "stdio"),  # neither /sse nor http(s): the reference's rule says stdio
    ],
)
def test_protocol_inference(url: str | None, expected: str) -> None:
    assert infer_protocol(url) == expected


def test_explicit_protocol_wins_and_inferred_when_absent(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "a": {"url": "http://h/sse", "protocol": "http"},
                    "b": {"url": "http://h/sse"},
                    "c": {"url": "https://h/mcp"},
                    "d": {"command": "x"},
                }
            }
        )
    )
    servers = load_config(path).servers
    assert [servers[n].effective_protocol for n in "abcd"] == ["http", "sse", "http", "stdio"]


def test_user_json_overrides_same_name_entries_and_keeps_order(tmp_path: Path) -> None:
    base = tmp_path / "mcp.json"
    base.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "first": {"command": "base-first"},
                    "second": {"command": "base-second", "args": ["-v"]},
                }
            }
        )
    )
    user = tmp_path / "mcp_user.json"
    user.write_text(
        json.dumps({"mcpServers": {"second": {"command": "user-second"}, "third": {"url": "https://u/mcp"}}})
    )
    config = load_config(base)
    assert user_override_path(base) == user
    assert list(config.servers) == ["first", "second", "third"]
    assert config.servers["second"].command == "user-second"
    assert config.servers["second"].args == []  # whole entry replaced, not merged field by field
    assert config.overridden == ("second",)
    assert config.user_path == user and config.user_sha256
    assert config.input_paths == (base, user)


def test_missing_user_json_is_tolerated_and_yaml_name_has_none(tmp_path: Path) -> None:
    base = tmp_path / "servers.json"
    base.write_text(json.dumps({"mcpServers": {"a": {"command": "x"}}}))
    assert load_config(base).user_path is None
    assert user_override_path(tmp_path / "servers.conf") is None


@pytest.mark.parametrize(
    ("document", "needle"),
    [
        ("{not json", "line 1, column 2"),
        ("[]", "mcpServers"),
        ('{"servers": {}}', "mcpServers"),
        ('{"mcpServers": {"a": {"args": ["x"]}}}', "mcpServers.a"),
        ('{"mcpServers": {"a": {"command": "x", "args": "not-a-list"}}}', "mcpServers.a.args"),
        ('{"mcpServers": {"a": {"protocol": "carrier-pigeon", "command": "x"}}}', "mcpServers.a.protocol"),
        ('{"mcpServers": {"a": {"protocol": "http"}}}', "needs a 'url'"),
    ],
)
def test_bad_configs_name_file_and_place(tmp_path: Path, document: str, needle: str) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(document)
    with pytest.raises(InputError) as info:
        load_config(path)
    message = info.value.render()
    assert str(path) in message and needle in message


def test_bad_user_json_is_reported_as_the_user_file(tmp_path: Path) -> None:
    (tmp_path / "mcp.json").write_text('{"mcpServers": {}}')
    (tmp_path / "mcp_user.json").write_text('{"mcpServers": {"x": {"args": [1]}}}')
    with pytest.raises(InputError) as info:
        load_config(tmp_path / "mcp.json")
    assert "mcp_user.json" in info.value.render()


def test_redaction_of_args_urls_and_text() -> None:
    args = ["--api-key", "AAAA1111", "--token=BBBB2222", "--verbose", "plain", "CCCC3333"]
    assert redact_args(args, {"CCCC3333"}) == ["--api-key", MASK, f"--token={MASK}", "--verbose", "plain", MASK]
    assert (
        redact_url("https://user:pw12345@h.example/mcp?api_key=zzz&x=1")
        == f"https://{MASK}@h.example/mcp?api_key={MASK}&x=1"
    )
    assert scrub("token is hunter2hunter2, DEBUG=1", {"hunter2hunter2", "1"}) == f"token is {MASK}, DEBUG=1"


def test_launch_summary_masks_every_secret(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(
        json.dumps(
            {
                "mcpServers": {
                    "s": {
                        "command": "srv",
                        "args": ["--password", "pw-secret-1", "--x"],
                        "env": {"API_TOKEN": "env-secret-2", "DEBUG": "1"},
                        "oauth": {"client_secret": "oauth-secret-3"},
                    },
                    "h": {
                        "url": "https://h.example/mcp?token=url-secret-4",
                        "headers": {"Authorization": "Bearer hdr-secret-5"},
                    },
                }
            }
        )
    )
    config = load_config(path)
    dumped = json.dumps([launch_summary(s) for s in config.servers.values()])
    for secret in ("pw-secret-1", "env-secret-2", "url-secret-4", "hdr-secret-5"):
        assert secret not in dumped
    assert '"API_TOKEN": "***"' in dumped and '"DEBUG": "***"' in dumped  # all env values masked
    assert "oauth-secret-3" in secret_values(config.servers["s"])  # secret-keyed extras are scrubbed from text
    assert "hdr-secret-5" in secret_values(config.servers["h"])  # "Bearer X" → X too


def test_free_text_scrubs_only_secret_looking_values() -> None:
    """Known values that are plain words survive in free text unless they are env/headers values."""
    from toolscope.core.mcp.redact import looks_secret

    for plain in ("build", "time", "1", "true", "password", "production"):
        assert not looks_secret(plain), plain
    for secret in ("sk-live-0123", "hunter2hunter2", "AbCdEfGhIj", "example-secret-value", "a" * 16):
        assert looks_secret(secret), secret
    text = "Get current time in a specific timezone (build 1)"
    assert scrub(text, {"time", "build", "1"}) == text
    assert scrub("token sk-live-0123 here", {"sk-live-0123", "time"}) == f"token {MASK} here"
    # env and headers values: masked whatever they look like, as whole words, from 4 characters.
    assert scrub(text, set(), always={"time", "build", "1"}) == f"Get current {MASK} in a specific timezone ({MASK} 1)"


def test_bearer_and_basic_tokens_masked_in_args() -> None:
    args = [
        "--header",
        "Authorization: Bearer abc123def",
        "-H",
        "X-Trace: Basic dXNlcjpwYXNz",
        "Bearer",
        "tok9876",
        "-e",
        "GITHUB_TOKEN=ghp_docker1",
        "https://u:pw-in-url-9@h.example/mcp",
        "--verbose",
        "time",
    ]
    assert redact_args(args, {"time"}) == [
        "--header",
        f"Authorization: {MASK}",
        "-H",
        f"X-Trace: Basic {MASK}",
        "Bearer",
        MASK,
        "-e",
        f"GITHUB_TOKEN={MASK}",
        f"https://{MASK}@h.example/mcp",
        "--verbose",
        MASK,  # "time" is a known value
    ]
    tokens = {"abc123def", "dXNlcjpwYXNz", "tok9876", "ghp_docker1", "pw-in-url-9"}
    from toolscope.core.mcp.redact import collect_secrets

    assert tokens <= collect_secrets({"args": args})


def test_report_and_discovery_share_one_scanner() -> None:
    """The report's secret scan is the MCP one: same values from the same server entry."""
    from toolscope.core.mcp.config import ServerConfig
    from toolscope.core.mcp.redact import scrubbable
    from toolscope.core.report.redaction import secret_values_in

    entry = {
        "command": "srv",
        "args": ["--api-key", "k-123456789", "--x", "Authorization: Bearer abc123def"],
        "env": {"MODE": "build", "API_TOKEN": "env-secret-2"},
        "oauth": {"client_secret": "oauth-secret-3"},
        "url": "https://h.example/mcp?token=url-secret-4",
        "headers": {"Authorization": "Bearer hdr-secret-5"},
    }
    from toolscope.core.mcp.redact import env_values

    from_report = secret_values_in({"mcpServers": {"s": entry}})
    server = ServerConfig.model_validate(entry)
    assert from_report == set(scrubbable(secret_values(server), env_values(server)))
    assert {"k-123456789", "abc123def", "env-secret-2", "oauth-secret-3", "url-secret-4", "hdr-secret-5"} <= from_report
    assert "build" in from_report  # an env value: masked whatever it looks like (issue 11)
