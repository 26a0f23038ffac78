"""A tournament played through the API of a running stack (tests and benchmarks)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from tests.production.stack import Client, Stack, wait_for

_slugs = itertools.count(1)


@dataclass
class Tournament:
    stack: Stack
    arbiter: Client
    slug: str
    tokens: list[str] = field(default_factory=list)
    registrations: list[dict] = field(default_factory=list)

    def player(self, index: int) -> Client:
        return self.stack.client(f"Player {self.tokens[index]}")

    def new_game(self, seed: int) -> dict:
        return self.arbiter.ok("POST", f"/api/tournaments/{self.slug}/games/",
                               {"kind": "seeded", "seed": seed}, status=201)  # fmt: skip

    def draw(self, game_id: int) -> dict:
        return self.arbiter.ok("POST", f"/api/games/{game_id}/rounds/draw", {}, status=201)

    def round(self, round_id: int) -> dict:
        return self.arbiter.ok("GET", f"/api/rounds/{round_id}/", status=200)

    def wait_top(self, round_id: int, seconds: float = 60) -> dict:
        """The round once the worker has stored its top."""
        return wait_for(
            lambda: (r := self.round(round_id))["top_ready"] and r, seconds,
            f"top of round {round_id}",
        )  # fmt: skip

    def open(self, round_id: int) -> dict:
        return self.arbiter.ok("POST", f"/api/rounds/{round_id}/open", status=200)

    def close(self, round_id: int) -> dict:
        return self.arbiter.ok(
            "POST", f"/api/rounds/{round_id}/close", {"confirm": True}, status=200
        )

    def place(self, round_id: int) -> dict:
        return self.arbiter.ok("POST", f"/api/rounds/{round_id}/place", {}, status=200)

    def proposals(self, round_id: int) -> list[dict]:
        return self.arbiter.ok("GET", f"/api/rounds/{round_id}/proposals/", status=200)

    def submit(self, index: int, move: dict, key: str) -> Any:
        body = {"reference": move["coord"], "word": move["word"], "score": move["score"],
                "client_key": key}  # fmt: skip
        return self.player(index).post("/api/player/proposals/", body)


def create_tournament(stack: Stack, players: int, **settings: Any) -> Tournament:
    arbiter = stack.arbiter()
    slug = f"prod-{next(_slugs)}-{players}"
    arbiter.ok("POST", "/api/tournaments/", {"name": f"Open {slug}", "slug": slug,
               "lexicon": stack.lexicon, "solo_value": 0, **settings}, status=201)  # fmt: skip
    tournament = Tournament(stack, arbiter, slug)
    for i in range(players):
        reg = arbiter.ok("POST", f"/api/tournaments/{slug}/players/",
                         {"name": f"Joueur {i + 1:03d}"}, status=201)  # fmt: skip
        tournament.tokens.append(reg["access_token"])
        tournament.registrations.append(reg)
    return tournament


def move_for(rnd: dict, index: int) -> dict:
    """Player ``index``'s move this round: one of the round's best moves (valid words)."""
    best = rnd["top"]["best"]
    return best[index % len(best)]
