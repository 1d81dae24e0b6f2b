"""A toy system for tests: one package and one registry entry, no edit to toolscope.

Its CONFIG is ``toy:DIR`` (or a folder holding ``toybox.json``, or that file itself): a list of
tools, each ``listed`` (the box has it) and ``switched_on``; a tool switched off is a finding.
Added to a toolscope process by ``TOOLSCOPE_SYSTEMS=toy_system.system`` (with this folder's
parent on ``PYTHONPATH``) or by ``core.systems.registry.register(SYSTEM)``.
"""
