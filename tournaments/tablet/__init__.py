"""Player tablets: a private link per registration, no account (issue 6)."""
