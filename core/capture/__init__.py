"""Captured model requests (``toolscope.capture/1``): reading them, and comparing them with toolscope's predictions."""
