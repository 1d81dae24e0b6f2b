"""AgentScope 2.x toolkits: specs and factories as real Toolkits, the activation guard,
stages, and step-through sessions.

Modules (import them directly; this package imports nothing, so that ``planner`` stays
importable without AgentScope and nothing pays for ``import agentscope.tool`` early):

- ``planner``  pure ``plan_activation`` → frozen ``ActivationPlan`` (no AgentScope);
- ``guard``    ``GroupActivationGuard`` (a ``ToolMiddlewareBase``), ``install_guard``;
- ``spec``     declarative toolkit specs (YAML/JSON) → real ``Toolkit`` + ``AgentState``
  (its pydantic models in ``spec_models``, re-exported);
- ``factory``  ``package.module:function`` / ``file.py:function`` → the user's Toolkit;
- ``probe``    which behaviour the installed stock ``reset_tools`` has (observed);
- ``script``   step-through script format and loader;
- ``session``  ``StepSession``: stock and guarded lanes, replay forward/backward;
- ``turns``    ``Turn`` / ``LaneTurn``, their JSON, the token estimate (re-exported by session);
- ``stages``   registered / visible / callable with the real ``PermissionEngine``;
- ``subject``  ``load_toolkit_subject`` → the ``Subject`` the CLI and TUI use;
- ``checklist`` / ``findings``  the subject's ``explain`` checklist and ``check`` findings;
- ``aio``      ``run_sync`` for calling async AgentScope code from sync front ends;
- ``version``  which AgentScope is installed (from its metadata) and whether it is supported;
- ``v1/``      the same questions on AgentScope 1.x (groups on the Toolkit, ``reset_equipped_tools``).
"""
