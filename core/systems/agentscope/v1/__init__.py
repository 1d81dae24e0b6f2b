"""AgentScope 1.x toolkits: groups whose ``active`` flag lives on the ``Toolkit``, the meta
tool ``reset_equipped_tools``, 1.x sessions.

The installed major version decides (``..version``); the 2.x modules one level up stay
2.x-only. Shared with them: the pure planner (``..planner``), turns (``..turns``), the
recorded-session data (``..recorded``), the lost-tool links (``..lost_tools``) and the
stage/verdict model (``core.model``).

Modules (import them directly; AgentScope is imported inside functions):

- ``build``     spec → real 1.x ``Toolkit``; a factory's result checked; ``BuiltToolkitV1``;
- ``stages``    registered / visible (group flag, cross-checked with ``get_json_schemas``);
- ``subject``   ``ToolkitSubjectV1``: the ``Subject`` the CLI and TUI use;
- ``explain``   the ``explain`` checklist and the ``check`` findings;
- ``guard``     the guard as a ``Toolkit.register_middleware`` (1.0.16+);
- ``session``   ``StepSessionV1``: stock and guarded lanes by ``state_dict`` round trips;
- ``probe``     what the installed stock ``reset_equipped_tools`` does (observed);
- ``sessions``  1.x ``JSONSession`` files, agent ``state_dict``s, memory dumps (pure);
- ``replay``    a recorded 1.x session replayed on both lanes, with the lost-tool links.
"""
