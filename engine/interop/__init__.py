"""Other programs' game files read and written as the engine's own values (docs/eliot.md)."""
