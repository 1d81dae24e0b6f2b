"""``inspect --capture FILE``: the captured model requests in order, followed live."""
