"""The card family (issue 18): Scrabble's card version, 2 to 6 players at a table.

Its games are not tournament games: a table (``tournaments.models.CardTable``) is opened by
an arbiter in the console or by a player from their tablet link, and played on tablets, so
it registers no formula and no entry of the tournament documents catalogue (those are per
tournament or per duplicate game); a table's record (JSON ``tirage-cards``) and its printed
sheet are downloaded from the table's own pages. It brings the routes of its audiences: the
seats' tablets, the shared screen and the players' page opening tables under ``cartes/``,
the arbiter's pages under ``arbitre/cartes/``."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from tournaments.families import Family, register

CARDS = register(
    Family(
        code="cards",
        label=_("Scrabble en cartes"),
        routes=(
            ("cartes/", "tournaments.cards.urls"),
            ("arbitre/cartes/", "tournaments.cards.console_urls"),
        ),
    )
)
