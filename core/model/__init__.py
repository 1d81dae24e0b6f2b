"""The domain model every front end shares: a tool's verdict stage by stage (``verdicts``),
the closed vocabularies (``enums``), the errors users see and their exit codes (``errors``),
``--expect`` assertions (``expectations``), the ``Subject`` protocol a loaded input offers
(``subject``) and the state its verdicts are computed in (``verdict_state``), and the marks and words shown for the same facts everywhere (``presentation``,
``counts``)."""
