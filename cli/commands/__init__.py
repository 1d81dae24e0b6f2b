"""The CLI's commands, one module per command family (``explain``, ``tools``, ``check``, ``step``,
``discover``, ``filter``, ``inspect``, ``report``), and the options and helpers they share (``common``)."""
