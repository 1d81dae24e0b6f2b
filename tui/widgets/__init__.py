"""The widgets the screens are built from, one per file; the activation view's parts are in
``activation/``."""
