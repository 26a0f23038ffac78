"""The demonstration tournament ``make run`` opens on: built through the services, so the
rules apply and the audit log tells its story.

``demo_create`` registers 20 fictional players (names, clubs, licences, series and
categories), issues their tablet tokens and plays a seeded game up to round 4: each round is
drawn, its top computed, opened, every player's proposal submitted from the "tablet"
(players of varied strength, deterministic), closed and its top placed. Round 5 is drawn with
its top computed and left **not opened**, so a newcomer presses *Ouvrir* and enters slips.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from django.db import transaction

from tournaments.access import Actor, PlayerActor, is_system
from tournaments.errors import ServiceError
from tournaments.models import GameKind, Lexicon, ProposalSource, Round, Tournament
from tournaments.services.audit import audit_record
from tournaments.services.games import game_create, lexicon_register, round_draw, round_place_top
from tournaments.services.proposals import proposal_submit
from tournaments.services.registry import (
    player_register,
    registration_token_issue,
    tournament_create,
)
from tournaments.services.rounds import (
    computed_top,
    round_close,
    round_compute_top,
    round_open,
)

DEMO_SLUG = "demo"
DEMO_NAME = "Tournoi de démonstration"
DEMO_SEED = 20250104  # the game's racks: the same demo on every machine
PLAYED_ROUNDS = 4  # rounds 1–4 played; round 5 drawn, top computed, not opened

#: (name, club, series, category, strength): fictional players. ``strength`` (0–1) is the
#: chance of playing the top; the others play one of the next best moves, deeper the weaker.
PLAYERS: tuple[tuple[str, str, str, str, float], ...] = (
    ("Hélène Le Gall", "Club de Rennes", "2A", "Vermeil", 0.95),
    ("Yann Kerhervé", "Scrabble Club de Brest", "2A", "", 0.85),
    ("Marie-Thérèse Guillou", "Scrabble Club de Brest", "3B", "Diamant", 0.75),
    ("Thomas Bouvier", "Club de Rennes", "3B", "", 0.7),
    ("Élodie Marchand", "Scrabble Club Nantais", "3B", "", 0.65),
    ("Jean-Pierre Le Bihan", "Club de Quimper", "4C", "Vermeil", 0.55),
    ("Sophie Lemoine", "Scrabble Club Nantais", "4C", "", 0.5),
    ("Gwenaëlle Tanguy", "Club de Quimper", "4C", "", 0.5),
    ("Lucas Morvan", "Club de Rennes", "4C", "Junior", 0.45),
    ("Françoise Derrien", "Scrabble Club de Lorient", "5A", "Diamant", 0.4),
    ("Nicolas Perrot", "Scrabble Club de Lorient", "5A", "", 0.35),
    ("Anne-Laure Cadiou", "Scrabble Club de Brest", "5A", "Vermeil", 0.35),
    ("Bernard Jaouen", "Club de Vannes", "5A", "Diamant", 0.3),
    ("Camille Riou", "Club de Vannes", "6B", "Cadet", 0.25),
    ("Pierre-Yves Le Roux", "Club de Vannes", "6B", "", 0.25),
    ("Monique Salaün", "Club de Quimper", "6B", "Vermeil", 0.2),
    ("Chloé Besnard", "Scrabble Club Nantais", "6B", "Espoir", 0.2),
    ("Gérard Pichon", "Scrabble Club de Lorient", "7", "Vermeil", 0.15),
    ("Inès Benali", "Club de Rennes", "7", "Junior", 0.1),
    ("Mathilde Corre", "Scrabble Club de Brest", "7", "", 0.1),
)
#: How hard each round's top is to find (0–1): a player finds it when their strength, give
#: or take 0.05, reaches it. Round 3's top is meant to be a solo for the best player.
ROUND_DIFFICULTY = (0.2, 0.45, 0.92, 0.3)
#: Fictional licence numbers (table 1 → 999001 …), so the demo never reuses a real player.
LICENCE_BASE = 999000


def demo_create(*, lexicon_path_or_lexicon: str | Path | Lexicon, actor: Actor) -> Tournament:
    """The demo tournament (slug ``demo``), created once: an existing one is returned as is.

    ``lexicon_path_or_lexicon``: a compiled lexicon file (registered by its identity) or a
    ``Lexicon`` row. ``actor`` (the arbiter account) becomes the head arbiter and is the
    author of every action in the audit log (``access.SYSTEM`` builds it with no head arbiter),
    the tablets' proposals excepted: each player's own. All or nothing: one transaction."""
    existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
    if existing is not None:
        return existing
    with transaction.atomic():
        lexicon = lexicon_path_or_lexicon
        if not isinstance(lexicon, Lexicon):
            lexicon = lexicon_register(path=str(lexicon), actor=actor)
        tournament = tournament_create(
            name=DEMO_NAME,
            slug=DEMO_SLUG,
            description=(
                "Un tournoi fictif pour découvrir Tirage : 20 joueurs, une partie en duplicate "
                f"en cours (coups 1 à {PLAYED_ROUNDS} joués, coup {PLAYED_ROUNDS + 1} tiré, "
                f"pas encore ouvert). Lexique : {lexicon.label}."
            ),
            lexicon_id=lexicon.pk,
            actor=actor,
        )
        registrations = []
        for table, (name, club, series, category, _strength) in enumerate(PLAYERS, start=1):
            reg = player_register(
                tournament_id=tournament.pk, name=name, licence=str(LICENCE_BASE + table),
                club=club, federation="FFSc", series=series, category=category, table=table,
                actor=actor,
            )  # fmt: skip
            registration_token_issue(registration_id=reg.pk, actor=actor)
            registrations.append(reg)
        game = game_create(
            tournament_id=tournament.pk, kind=GameKind.SEEDED, seed=DEMO_SEED, actor=actor
        )
        for _ in range(PLAYED_ROUNDS):
            rnd = _drawn_with_top(game.pk, actor)
            round_open(round_id=rnd.pk, actor=actor)
            for reg, player in zip(registrations, PLAYERS, strict=True):
                _play(rnd, reg, strength=player[4])
            round_close(round_id=rnd.pk, actor=actor, confirm=True)
            round_place_top(round_id=rnd.pk, actor=actor)
        _drawn_with_top(game.pk, actor)
        return tournament


def demo_legacy_retire(*, slug: str, name: str, actor: Actor) -> bool:
    """Remove the empty tournament the former ``fixtures/demo.json`` loaded (no players,
    no games, no arbiters), so the home page lists the demo once on an old database; True
    when there was one. Only the system (``manage.py tirage_setup``) does this."""
    if not is_system(actor):
        raise ServiceError("access.operator", "Only the system retires the old demonstration.")
    with transaction.atomic():
        legacy = Tournament.objects.filter(
            slug=slug, name=name, registrations__isnull=True, games__isnull=True,
            arbiters__isnull=True,
        ).first()  # fmt: skip
        if legacy is None:
            return False
        audit_record(actor=actor, action="tournament.delete", obj=legacy, slug=legacy.slug,
                     reason="ancienne démonstration vide remplacée")  # fmt: skip
        legacy.delete()
        return True


def _drawn_with_top(game_id: int, actor: Actor) -> Round:
    """Draw the next rack and compute its top now (the queued task then finds it stored)."""
    rnd = round_draw(game_id=game_id, actor=actor)
    return round_compute_top(round_id=rnd.pk, actor=actor)


def _play(rnd: Round, reg: Any, *, strength: float) -> None:
    """One player's tablet proposal for the round, chosen deterministically: the top when
    the player's strength (with a little luck) beats the round's difficulty, else a lower
    move from the round's best moves (``engine.movegen.best_moves``, stored with the top),
    deeper the weaker; now and then a misspelt word (zero) or no slip at all."""
    rng = random.Random(DEMO_SEED * 1000 + rnd.number * 100 + reg.table_number)
    top = computed_top(rnd)
    best = top["best"]
    if rng.random() < 0.06 * (1 - strength):
        return  # no slip handed in: zero.no_proposal
    difficulty = ROUND_DIFFICULTY[(rnd.number - 1) % len(ROUND_DIFFICULTY)]
    if strength + rng.uniform(-0.05, 0.05) >= difficulty or len(best) < 2:
        move = top["chosen"]
    else:
        deepest = min(len(best) - 1, 1 + round(9 * (1 - strength)))
        move = best[rng.randint(1, deepest)]
        if rng.random() < 0.15 * (1 - strength):
            move = {**move, "word": _misspelt(move["word"])}
    proposal_submit(
        round_id=rnd.pk,
        player_id=reg.player_id,
        word=move["word"],
        reference=move["coord"],
        source=ProposalSource.TABLET,
        client_key=f"demo-{rnd.number}-{reg.table_number}",
        device="démonstration",
        actor=PlayerActor.of(reg),
    )


def _misspelt(word: str) -> str:
    """The word with its last two letters swapped (or doubled), as a hurried player writes."""
    if len(word) >= 3 and word[-1] != word[-2]:
        return word[:-2] + word[-1] + word[-2]
    return word + word[-1]
