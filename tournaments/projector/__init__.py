"""The projector: a read-only, full-screen view of a game for the room (issue 6)."""
