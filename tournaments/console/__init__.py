"""The arbiter console: server-rendered pages, keyboard first, mounted under /arbitre/."""
