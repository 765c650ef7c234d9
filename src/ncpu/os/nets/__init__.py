"""neurOS's trained parts: each a small network, its oracle, its training and its check."""
