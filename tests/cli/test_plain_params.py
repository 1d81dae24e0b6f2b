"""PlainGroup converts plain str/Path/list values itself, with the results Typer's own
pydantic-based conversion gives, and leaves every other parameter to Typer."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import pytest
import typer
from typer.testing import CliRunner

from toolscope.cli.plain_params import PlainGroup

runner = CliRunner()


def make_app(cls: type | None) -> tuple[typer.Typer, list]:
    seen: list = []
    app = typer.Typer(cls=cls) if cls else typer.Typer()

    @app.callback()
    def root(verbose: Annotated[bool, typer.Option("--verbose")] = False) -> None:
        seen.append(("verbose", verbose))

    @app.command()
    def run(
        name: Annotated[str, typer.Argument()],
        where: Annotated[Path | None, typer.Option("--where")] = None,
        tags: Annotated[list[str] | None, typer.Option("--tag")] = None,
        files: Annotated[list[Path] | None, typer.Option("--file")] = None,
        out: Annotated[Path, typer.Option("--out")] = Path("."),
        seconds: Annotated[float, typer.Option("--seconds")] = 1.5,
        flag: Annotated[bool, typer.Option("--flag")] = False,
    ) -> None:
        seen.append((name, where, tags, files, out, seconds, flag))

    @app.command()
    def other() -> None:
        seen.append("other")

    return app, seen


@pytest.mark.parametrize(
    "args",
    [
        ["run", "x"],
        ["--verbose", "run", "ünï code", "--where", "a/b", "--tag", "t1", "--tag", "", "--file", "f", "--out", "o"],
        ["run", "x", "--seconds", "2", "--flag"],
        ["run", "x", "--seconds", "soon"],  # Typer's own error for a float
        ["run"],  # a missing argument
        ["run", "--help"],
        ["other"],
    ],
)
def test_same_values_and_errors_as_typers_own_conversion(args: list[str]):
    plain_app, plain_seen = make_app(PlainGroup)
    typer_app, typer_seen = make_app(None)
    plain = runner.invoke(plain_app, args)
    stock = runner.invoke(typer_app, args)
    assert (plain.exit_code, plain.output) == (stock.exit_code, stock.output)
    assert plain_seen == typer_seen
    for got, expected in zip(plain_seen, typer_seen, strict=True):
        if isinstance(got, tuple):  # same types, not only equal values
            assert [type(v) for v in got] == [type(v) for v in expected]
