"""Reports: one ``ReportData`` built from a Subject, rendered as Markdown, HTML or JSON.

Public API::

    build.build_report(subject, modes=(), tools=(), *, transcript=None, extra_files=(),
                       environment=None, secrets=(), generated_at=None) -> ReportData
    data.ReportData / Provenance / ModeSection;  transcript.Transcript / Turn / TurnSide
    summary.summary_lines(report) -> list[str]   # the plain-text summary every format starts with
    markdown.render_markdown(report) -> str      # GitHub-flavoured, ASCII, inert
    markdown_text.md / prose / code              # untrusted text as inert Markdown, code spans verbatim
    html.render_html(report) -> str              # one self-contained page
    json_report.render_json(report) -> str       # "toolscope.report/2", its one writer
    json_report.report_document(report) -> dict;  json_report.report_schema() -> dict
    redaction.secret_values_in_files(paths) -> set[str];  redaction.Redactor(secrets, public=())
    diff.mode_diff(sections) -> ModeDiff   # DiffRow / ModePair / ModeDiff
    adapters.run_transcript(subject, script) -> (Transcript, (name, sha256))
    adapters.probe_facts() -> ((question, answer), ...)

``toolscope.cli.commands.report_document.make_report(config, modes=, tools=, script=, …)`` opens a
CONFIG and builds its report the way the CLI does. What is a secret and how it is masked
is decided in ``toolscope.core.mcp.redact`` (see ``redaction``); files are written by
``toolscope.core.outputs.output_file`` (the same rules for every output). SVG is the TUI's screenshot
(``toolscope.tui.screenshot.render_svg_sync``), not built here: core never imports the TUI.
"""
