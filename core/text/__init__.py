"""Text that crosses a trust boundary: untrusted names made inert (``safe_text``), suggested
commands shell-quoted (``shell``), "did you mean" suggestions (``suggest``), and long recorded
text clipped for showing (``clip``)."""
