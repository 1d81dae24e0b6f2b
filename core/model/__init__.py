"""The domain model every front end shares.

- A tool's verdict stage by stage: import it from ``verdicts`` (what was loaded, one mode's
  evaluation), which re-exports the shapes beside it: ``tool_verdict`` (a stage, a tool's row
  of stages), ``verdict_list`` (the compact store of a large evaluation), ``answers``
  (checklists and findings).
- The closed vocabularies (``enums``), the errors users see and their exit codes (``errors``),
  ``--expect`` assertions (``expectations``).
- The ``Subject`` protocol a loaded input offers (``subject``) and the state its verdicts are
  computed in (``verdict_state``).
- The marks and words shown for the same facts everywhere (``presentation``, ``counts``,
  ``attention``).
"""
