"""Printable documents and exports of a tournament (rules §7, P1–P7).

Every renderer is a pure function from the plain, frozen data of :mod:`tournaments.reports.data`
to a :class:`Rendered` file, so the console, the API and ``manage.py tirage_export`` serve
the same bytes and the renderers are tested without a database. Only ``data`` reads the
database (through the selectors and the adapter). See docs/reports.md.
"""

from __future__ import annotations

from tournaments.reports.base import Rendered

__all__ = ["Rendered"]
