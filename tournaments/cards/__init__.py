"""The card game's pages (issue 18): the seats' tablets, the shared screen, the console."""
