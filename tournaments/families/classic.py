"""The classic family (formule classique): 2 to 4 players take turns on one board; its
tournaments pair players table by table, round after round (engine/classic/, docs/classic.md).

A tournament is classic when it has a ``ClassicEvent`` (``services.classic``); its
divisions, rounds, tables and results are ``tournaments/models/classic.py``. The family
registers the console's classic pages (under /arbitre/classique/) and the players' result
page on their tablet link (/tablette/<token>/classique/). It stores no formula
code in ``Tournament.variant_code``, which stays the duplicate variant's (``classic`` is
an old name of the standard duplicate game, still read in old records)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from tournaments.families import Family, register

CLASSIC = register(
    Family(
        code="classic",
        label=_("Formule classique"),
        routes=(
            ("arbitre/classique/", "tournaments.console.classic_urls"),
            ("tablette/", "tournaments.tablet.classic_urls"),
        ),
    )
)
