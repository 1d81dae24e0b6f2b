"""A system's prediction against a capture: per request, the tools predicted and the tools received.

``compare`` lines up each system's ``Prediction`` (``core.model.prediction``) with the
recorded requests (``core.capture.observed``); ``predict`` asks the subject's system for its
predictions; ``cli_offer`` compares the coding-agent CLIs in their own terms (each tool full or
deferred, each call ran or refused). It sits above the systems: ``core.capture`` records
requests and knows no system.
"""
