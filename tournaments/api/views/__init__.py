"""API views, by audience: tournaments (public reads, arbiters' set-up), play (arbiters
running a game), player (the player token), auth (arbiter tokens)."""
