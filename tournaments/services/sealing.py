"""Sealing a pre-drawn game's racks (issue 16, item 1; docs/simultaneous.md).

``sealed_store`` writes the encrypted lines of a game being created (``game_create`` with
``sealed=True``: the text never reaches ``Game.predrawn``, nor any audit row); ``game_seal``
seals an existing pre-drawn game before its first draw. The release schedule and the
releases themselves are in ``services.release``. This module imports no other game service,
so ``services.games`` can call it.
"""

from __future__ import annotations

from django.db import transaction

from tournaments import seal_crypto
from tournaments.access import Actor, require_arbiter, user_of
from tournaments.errors import ServiceError
from tournaments.models import Game, GameKind, SealedGame, SealedRound
from tournaments.models.release import is_sealed
from tournaments.services.audit import audit_record


def sealed_lines(text: str) -> list[str]:
    """The rounds of a pre-drawn text as :class:`PredrawnSource` reads them: one per
    non-empty line, ``#`` comments dropped, racks separated by one space."""
    lines = []
    for line in text.splitlines():
        racks = line.split("#", 1)[0].split()
        if racks:
            lines.append(" ".join(racks))
    return lines


def sealed_store(*, game: Game, text: str, actor: Actor) -> SealedGame:
    """Encrypt ``text``'s lines for ``game`` (inside the caller's transaction). The audit
    row counts the lines and names the key, never a rack."""
    lines = sealed_lines(text)
    if not lines:
        raise ServiceError("game.predrawn", "A pre-drawn game needs its racks, one line a round.")
    kid, key = seal_crypto.sealing_key()
    seal = SealedGame.objects.create(
        game=game, key_id=kid, lines=len(lines), sealed_by=user_of(actor)
    )
    SealedRound.objects.bulk_create(
        SealedRound(
            sealed=seal,
            number=n,
            token=seal_crypto.seal_line(line, key=key, game_id=game.pk, number=n),
        )
        for n, line in enumerate(lines, start=1)
    )
    audit_record(actor=actor, action="game.seal", obj=game, lines=len(lines), key=kid)
    return seal


def game_seal(*, game_id: int, actor: Actor) -> SealedGame:
    """Seal an existing pre-drawn game before its first draw (head arbiter): its text is
    encrypted and ``Game.predrawn`` emptied. Sealing a sealed game again is a no-op.

    Creating the game sealed (``sealed=True`` on the creation services) is better: here
    the text was stored in clear until now (docs/security.md)."""
    with transaction.atomic():
        game = Game.objects.select_for_update().filter(pk=game_id).first()
        if game is None:
            raise ServiceError("game.unknown", f"There is no game {game_id}.")
        require_arbiter(actor=actor, tournament_id=game.tournament_id, head=True)
        if is_sealed(game):
            return SealedGame.objects.get(game=game)
        if game.kind != GameKind.PREDRAWN or game.rounds.exists() or game.pending_draws:
            raise ServiceError(
                "seal.state", "Only a pre-drawn game with no rack drawn yet can be sealed."
            )
        text, game.predrawn = game.predrawn, ""
        game.save(update_fields=["predrawn"])
        return sealed_store(game=game, text=text, actor=actor)
