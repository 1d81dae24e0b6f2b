"""Renderers: each prints one kind of answer core gives (a verdict table, a checklist, findings,
a capture comparison, a step run), in Rich for people or as a JSON document.

A command parses its options, asks core once and hands the answer to one renderer here; core
never imports Rich. Renderers import core's models and ``cli.output``, never a command module.
"""
