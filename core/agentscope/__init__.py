"""AgentScope 2.x toolkits: specs and factories as real Toolkits, the activation guard,
stages, and step-through sessions.

Modules (import them directly; this package imports nothing, so that ``planner`` stays
importable without AgentScope and nothing pays for ``import agentscope.tool`` early):

- ``planner``  pure ``plan_activation`` → frozen ``ActivationPlan`` (no AgentScope);
- ``guard``    ``GroupActivationGuard`` (a ``ToolMiddlewareBase``), ``install_guard``;
- ``spec``     declarative toolkit specs (YAML/JSON) → real ``Toolkit`` + ``AgentState``;
- ``factory``  ``package.module:function`` / ``file.py:function`` → the user's Toolkit;
- ``probe``    which behaviour the installed stock ``reset_tools`` has (observed);
- ``script``   step-through script format and loader;
- ``session``  ``StepSession``: stock and guarded lanes, replay forward/backward;
- ``stages``   registered / visible / callable with the real ``PermissionEngine``;
- ``subject``  ``load_toolkit_subject`` → the ``Subject`` the CLI and TUI use;
- ``aio``      ``run_sync`` for calling async AgentScope code from sync front ends.
"""
