"""YAML inputs are parsed by libyaml when it is installed, with exactly PyYAML's results,
and every error (syntax, repeated key) is reported as PyYAML's own parser words it."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from toolscope.core.inputs.safe_yaml import _strict_loader, parse_yaml
from toolscope.core.model.errors import InputError

SAMPLES = Path(__file__).resolve().parents[2] / "sample_configs"
YAML_FILES = sorted([*SAMPLES.rglob("*.yaml"), *SAMPLES.rglob("*.yml")])

needs_libyaml = pytest.mark.skipif(not yaml.__with_libyaml__, reason="PyYAML built without libyaml")


@needs_libyaml
@pytest.mark.parametrize("path", YAML_FILES, ids=lambda p: str(p.relative_to(SAMPLES)))
def test_libyaml_and_pyyaml_read_every_sample_the_same(path: Path):
    text = path.read_text("utf-8")
    assert yaml.load(text, Loader=_strict_loader(fast=True)) == yaml.load(text, Loader=_strict_loader())


@needs_libyaml
def test_the_fast_loader_is_libyamls():
    assert issubclass(_strict_loader(fast=True), yaml.CSafeLoader)


@pytest.mark.parametrize(
    ("text", "where", "what"),
    [
        ("a: 1\na: 2\n", "line 2, column 1", "key 'a' appears twice in one mapping"),
        ("a: [1, 2\nb: 3\n", "line 2, column 2", "expected ',' or ']', but got ':'"),
        ("a: b: c\n", "line 1, column 5", "mapping values are not allowed here"),
    ],
)
def test_errors_are_worded_by_pyyaml(text: str, where: str, what: str):
    with pytest.raises(InputError) as caught:
        parse_yaml(text, "f.yaml")
    problem = caught.value.problems[0]
    assert (problem.location, problem.message) == (where, what)
