"""The stored figures against the recomputation (issue 16): every game's figures recomputed
from the proposals with the engine (``outcomes.computed_game_outcomes``, the path every
ranking took before the figures were stored) and compared with the stored rows
(``outcomes.stored_game_outcomes``), field by field. ``manage.py tirage_standings_check``
prints the differences; the tests run it after every game a scenario built."""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.translation import gettext

from engine.duplicate.totals import GameResult, PlayerGame
from tournaments import adapter
from tournaments.models import Game, Registration
from tournaments.selectors.outcomes import computed_game_outcomes, stored_game_outcomes
from tournaments.selectors.ranking_check import ranking_differences

#: PlayerGame fields as the sentences name them.
FIELDS = (
    ("total", "total"),
    ("rounds", "scores des coups"),
    ("solo_rounds", "solos"),
    ("solo_bonus", "bonus de solo"),
    ("warnings", "avertissements"),
    ("warning_penalty", "pénalité d'avertissements"),
    ("penalties", "pénalités"),
)


def _text(value: object) -> str:
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value) or "aucun"
    return str(value)


def game_differences(game: Game) -> list[str]:
    """French sentences, one per difference between the stored and the recomputed figures
    of ``game`` (none: they agree)."""
    settings = adapter.totals_settings(game.tournament, adapter.variant(game.variant_code))
    where = gettext("Tournoi « %(t)s », partie %(n)s") % {
        "t": game.tournament.slug,
        "n": game.number,
    }
    stored = stored_game_outcomes(game, settings)
    computed = computed_game_outcomes(game, settings)
    if stored is None:
        return [gettext("%(where)s : aucun chiffre enregistré (ou sous d'autres réglages).")
                % {"where": where}]  # fmt: skip
    out = []
    for name, label, a, b in (
        ("tops", gettext("tops"), stored.tops, computed.tops),
        ("counted", gettext("joueurs comptés pour les solos"), stored.counted, computed.counted),
        ("entrants", gettext("inscrits à la partie"), stored.entrants, computed.entrants),
    ):
        del name
        if a != b:
            out.append(gettext("%(where)s : %(what)s enregistrés %(a)s, recalculés %(b)s.")
                       % {"where": where, "what": label, "a": _text(a), "b": _text(b)})  # fmt: skip
    out += _player_differences(game, where, stored, computed)
    return out


def _player_differences(
    game: Game, where: str, stored: GameResult, computed: GameResult
) -> list[str]:
    tables = dict(
        Registration.objects.filter(tournament_id=game.tournament_id).values_list(
            "player_id", "table_number"
        )
    )
    names = dict(
        Registration.objects.filter(tournament_id=game.tournament_id).values_list(
            "player_id", "player__name"
        )
    )

    def who(player: object) -> str:
        return gettext("%(name)s (table %(table)s)") % {
            "name": names.get(player, f"#{player}"),
            "table": tables.get(player, "?"),
        }

    mine: dict[object, PlayerGame] = {p.player_id: p for p in stored.players}
    theirs: dict[object, PlayerGame] = {p.player_id: p for p in computed.players}
    out = []
    for player in theirs.keys() - mine.keys():
        out.append(gettext("%(where)s, %(who)s : aucune ligne enregistrée.")
                   % {"where": where, "who": who(player)})  # fmt: skip
    for player in mine.keys() - theirs.keys():
        out.append(gettext("%(where)s, %(who)s : ligne enregistrée en trop.")
                   % {"where": where, "who": who(player)})  # fmt: skip
    for player in sorted(mine.keys() & theirs.keys(), key=lambda p: tables.get(p, 0)):
        for attribute, label in FIELDS:
            a, b = getattr(mine[player], attribute), getattr(theirs[player], attribute)
            if a != b:
                out.append(
                    gettext("%(where)s, %(who)s : %(what)s enregistré %(a)s, recalculé %(b)s.")
                    % {
                        "where": where,
                        "who": who(player),
                        "what": gettext(label),
                        "a": _text(a),
                        "b": _text(b),
                    }  # fmt: skip
                )
    return out


def figures_differences(games: Iterable[Game]) -> list[str]:
    """Every difference of every game, in game order, then of their tournaments' paged
    rankings (``ranking_check``)."""
    out: list[str] = []
    tournaments = {}
    for game in games:
        out += game_differences(game)
        tournaments[game.tournament_id] = game.tournament
    for tournament in tournaments.values():
        out += ranking_differences(tournament)
    return out
