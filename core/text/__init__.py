"""Text that crosses a trust boundary: untrusted names made inert (``safe_text``), suggested
commands shell-quoted (``shell``), and "did you mean" suggestions (``suggest``)."""
