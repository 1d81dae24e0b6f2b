"""What the app does to a step's ``selected_servers`` / ``selected_tools`` before ``ToolFilter`` sees them.

coding-agent-loop ``controller_agent_factory.go`` at HEAD (reference §2.3, §1.8):

* selected_servers, non-empty: the entries that equal a workflow server (exact string
  comparison, no normalization) are kept; when none is left the list becomes
  ``["NO_SERVERS"]``. Empty: the workflow's servers, or ``["NO_SERVERS"]`` when it has none.
* selected_tools: the workflow has no servers → empty; the step has none → the
  workflow-level list; else the entries whose part before the first ``:`` (the whole
  entry without one) equals a workflow server. Then the app's own entries are appended
  when missing (HEAD: ``workflow_db:record_run_concern``).

The registry's ``workflow`` section says which servers the workflow has; without it the
rewrite cannot be modelled and the step's lists are used as written (and said so).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from .filter_decisions import quote, quote_list
from .registry import Workflow
from .step_config import LoadedStep

NO_SERVERS = "NO_SERVERS"
WHERE = "controller_agent_factory.go"


@dataclass(frozen=True)
class ListRewrite:
    """One list before and after the app's rewrite, with where each resulting entry came from."""

    field: str
    before: tuple[str, ...]
    after: tuple[str, ...]
    rules: tuple[str, ...] = ()
    """One sentence per change the app made (empty when the list passes unchanged)."""
    origins: dict[str, str] = dataclasses.field(default_factory=dict)  # `field` is the attribute above
    """Entry of ``after`` → ``file: path`` of the line it came from (step or registry)."""

    @property
    def changed(self) -> bool:
        """Whether the filter sees a different list than the step wrote."""
        return self.before != self.after

    def to_json(self) -> dict[str, object]:
        """JSON form for ``explain --json``."""
        return {"before": list(self.before), "after": list(self.after), "rules": list(self.rules)}


@dataclass(frozen=True)
class SelectionRewrite:
    """Both lists as the filter receives them."""

    modelled: bool
    servers: ListRewrite
    tools: ListRewrite
    note: str
    """One sentence: what the rewrite did, or why it could not be modelled."""
    workflow_servers: tuple[str, ...] = ()
    """The workflow's servers the lists were compared against (empty when not modelled)."""
    servers_where: str = ""
    """Where the workflow's servers are written (``registry: workflow.servers`` or workflow.json)."""

    @property
    def changed(self) -> bool:
        """Whether either list differs from what the step wrote."""
        return self.servers.changed or self.tools.changed

    def list_for(self, field_name: str) -> ListRewrite:
        """The rewrite of ``selected_servers`` or ``selected_tools``."""
        return self.servers if field_name == "selected_servers" else self.tools

    def to_json(self) -> dict[str, object]:
        """JSON form for ``explain --json``."""
        return {
            "modelled": self.modelled,
            "note": self.note,
            "selected_servers": self.servers.to_json(),
            "selected_tools": self.tools.to_json(),
        }


@dataclass(frozen=True)
class WorkflowServers:
    """The workflow's servers and lists, with where each is written (the registry's ``workflow``
    section, or workflow.json's ``capabilities``)."""

    servers: tuple[str, ...]
    selected_tools: tuple[str, ...]
    append_selected_tools: tuple[str, ...]
    servers_where: str
    tools_where: str
    append_where: str

    @classmethod
    def of_registry(cls, workflow: Workflow, registry_name: str) -> WorkflowServers:
        """The registry's hand-written ``workflow`` section."""
        return cls(
            workflow.servers,
            workflow.selected_tools,
            workflow.append_selected_tools,
            f"{registry_name}: workflow.servers",
            f"{registry_name}: workflow.selected_tools",
            f"{registry_name}: workflow.append_selected_tools",
        )


def rewrite_selection(
    step: LoadedStep, workflow: Workflow | WorkflowServers | None, registry_name: str
) -> SelectionRewrite:
    """The lists the app hands to ``NewToolFilter`` for this step."""
    if isinstance(workflow, Workflow):
        workflow = WorkflowServers.of_registry(workflow, registry_name)
    configs = step.step.agent_configs
    servers_before, tools_before = configs.selected_servers, configs.selected_tools
    step_origins = {
        name: _step_origins(step, name, values)
        for name, values in (("selected_servers", servers_before), ("selected_tools", tools_before))
    }
    if workflow is None:
        note = (
            f"{registry_name} has no workflow section, so the app's rewrite of selected_servers and selected_tools "
            f"against the workflow's servers ({WHERE}) could not be modelled: the step's lists are used as written"
        )
        return SelectionRewrite(
            False,
            ListRewrite("selected_servers", servers_before, servers_before, (), step_origins["selected_servers"]),
            ListRewrite("selected_tools", tools_before, tools_before, (), step_origins["selected_tools"]),
            note,
        )
    servers = _rewrite_servers(servers_before, workflow, registry_name, step_origins["selected_servers"])
    tools = _rewrite_tools(tools_before, workflow, registry_name, step_origins["selected_tools"])
    if servers.changed or tools.changed:
        note = f"the app rewrote the step's lists before the filter ({WHERE}): " + "; ".join(
            (*servers.rules, *tools.rules)
        )
    else:
        note = f"the app's rewrite against the workflow's servers ({WHERE}) leaves the step's lists unchanged"
    return SelectionRewrite(True, servers, tools, note, workflow.servers, workflow.servers_where)


def _step_origins(step: LoadedStep, field_name: str, values: tuple[str, ...]) -> dict[str, str]:
    origins: dict[str, str] = {}
    for index, value in enumerate(values):
        origins.setdefault(value, step.where(field_name, index))
    return origins


def _rewrite_servers(
    before: tuple[str, ...], workflow: WorkflowServers, registry: str, origins: dict[str, str]
) -> ListRewrite:
    name = "selected_servers"
    wf = workflow.servers_where
    known = quote_list(workflow.servers) if workflow.servers else "none"
    if not before:
        if workflow.servers:
            rule = f"{name} is empty, so the app fills in the workflow's servers {known} ({wf})"
            return ListRewrite(name, before, workflow.servers, (rule,), dict.fromkeys(workflow.servers, wf))
        rule = f'{name} is empty and the workflow has no servers ({wf}), so the app passes ["{NO_SERVERS}"]'
        return ListRewrite(name, before, (NO_SERVERS,), (rule,), {NO_SERVERS: wf})
    kept = tuple(s for s in before if s in workflow.servers)
    dropped = [s for s in before if s not in workflow.servers]
    rules = [
        f"{name} entry {quote(s)} dropped: not a workflow server (exact comparison; workflow servers: {known}, {wf})"
        for s in dict.fromkeys(dropped)
    ]
    if kept:
        return ListRewrite(name, before, kept, tuple(rules), {s: origins[s] for s in kept})
    rules.append(f'no {name} entry is a workflow server, so the app passes ["{NO_SERVERS}"]')
    return ListRewrite(name, before, (NO_SERVERS,), tuple(rules), {NO_SERVERS: wf})


def _rewrite_tools(
    before: tuple[str, ...], workflow: WorkflowServers, registry: str, origins: dict[str, str]
) -> ListRewrite:
    name = "selected_tools"
    rules: list[str] = []
    after: list[str]
    out_origins: dict[str, str] = {}
    if not workflow.servers:
        after = []
        if before:
            rules.append(f"the workflow has no servers ({workflow.servers_where}), so the app empties {name}")
    elif not before:
        after = list(workflow.selected_tools)
        where = workflow.tools_where
        out_origins.update(dict.fromkeys(after, where))
        if after:
            rules.append(f"{name} is empty, so the app uses the workflow-level list {quote_list(after)} ({where})")
    else:
        after = [entry for entry in before if entry.partition(":")[0] in workflow.servers]
        out_origins.update({entry: origins[entry] for entry in after})
        known = quote_list(workflow.servers)
        rules += [
            f"{name} entry {quote(entry)} dropped: {quote(entry.partition(':')[0])} is not a workflow server "
            f"(exact comparison; workflow servers: {known}, {workflow.servers_where})"
            for entry in dict.fromkeys(e for e in before if e.partition(":")[0] not in workflow.servers)
        ]
    for entry in workflow.append_selected_tools:
        if entry not in after:
            after.append(entry)
            out_origins[entry] = workflow.append_where
            rules.append(f"the app appends {quote(entry)} to {name} ({workflow.append_where})")
    return ListRewrite(name, before, tuple(after), tuple(rules), out_origins)


@runtime_checkable
class RewritesSelection(Protocol):
    """A subject whose selected_servers / selected_tools the app rewrites before the filter: a
    front end asks ``isinstance(subject, RewritesSelection)`` (``explain``)."""

    @property
    def selection_rewrite(self) -> SelectionRewrite:
        """Both lists before and after the rewrite."""
        ...
