"""The Textual app. Imported only by the ``inspect`` command and the report's SVG export."""
