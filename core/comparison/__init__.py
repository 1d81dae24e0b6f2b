"""A system's prediction against a capture: per request, the tools predicted and the tools received.

``compare`` lines up each system's ``Prediction`` (``core.model.prediction``) with the
recorded requests (``core.capture.observed``); ``predict`` asks the subject's system for its
predictions (its capture hook in ``core.systems.registry``; the coding-agent CLIs compare in their
own terms there: ``core.systems.coding_cli.capture_offer``). It sits above the systems: ``core.capture`` records
requests and knows no system.
"""
