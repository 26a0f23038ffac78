"""``python -m engine classic play``, ``replay`` and ``pair``.

``engine/cli.py`` calls :func:`add_parsers`. A bad argument or file raises ``EngineError``,
which the engine's ``main`` prints as one sentence with exit status 2; ``replay`` exits 1
with the first difference when the record does not reproduce, 0 when it does.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from engine.classic.game import Game, Turn
from engine.classic.pairings import SYSTEMS, pair_round
from engine.classic.players import LEVELS, EnginePlayer, play_to_end, player_seed
from engine.classic.record import game_to_record, load_record, replay
from engine.classic.settings import CHALLENGE_RULES, TIE_BREAKS, Settings
from engine.classic.standings import Result, standings
from engine.cli_files import load_lexicon, read_text, record_lexicon
from engine.errors import EngineError


def _levels(text: str, players: int) -> list[str]:
    """``best``, ``weak`` or one level per seat separated by commas."""
    levels = [part.strip() for part in text.split(",")]
    if len(levels) == 1:
        levels *= players
    if len(levels) != players or any(level not in LEVELS for level in levels):
        raise EngineError(
            "cli.level",
            f"--level is best, weak, or one of them per player separated by commas "
            f"({players} players), not {text!r}.",
        )
    return levels


def turn_line(turn: Turn, names: list[str]) -> str:
    """One line of the score sheet: number, player, rack, what was done, points, total."""
    if turn.action == "play" and turn.move is not None:
        what = f"{turn.move.coord:>4} {turn.move.word}"
        if turn.challenge:
            verdict = "valid" if turn.challenge.valid else "invalid, withdrawn"
            what += f" (challenged by {names[turn.challenge.by]}: {verdict})"
    elif turn.action == "exchange":
        what = f"exchange {turn.exchanged}"
    else:
        what = {"pass": "pass", "lost": "turn lost (challenge)"}[turn.action]
    return (
        f"{turn.number:>3}  {names[turn.player]:<10} {turn.rack:<8} {what:<40}"
        f" {turn.score:>4} {turn.scores[turn.player]:>5}"
    )


def score_sheet(game: Game, names: list[str], title: str = "") -> str:
    """The game sheet, ending with page 004's "lettres restantes" and "partie terminée"."""
    lines = [title] if title else []
    first = ", ".join(names[s] for s in game.order)
    lines.append(f"Order of play: {first}")
    lines.extend(turn_line(t, names) for t in game.turns)
    if game.end:
        adj = game.end.adjustments
        lines.append(game.end.sentence())
        left = ", ".join(f"{names[a.player]} -{a.minus} ({a.remaining or '-'})" for a in adj)
        lines.append(f"Lettres restantes: {left}")
        if game.end.player is not None:
            out = adj[game.end.player]
            lines.append(f"Partie terminée: {names[out.player]} +{out.plus}")
        for a, rank in sorted(zip(adj, game.end.ranks, strict=True), key=lambda p: p[1]):
            lines.append(f"{rank:>3}. {names[a.player]:<10} {a.final:>5}")
    return "\n".join(lines)


def cmd_play(args: argparse.Namespace) -> int:
    settings = Settings(
        challenge=args.challenge,
        challenge_points=args.challenge_points,
        tie_break=args.tie_break,
    )
    lexicon = load_lexicon(args.lexicon)
    game = Game(args.players, args.seed, settings, lexicon=lexicon)
    levels = _levels(args.level, args.players)
    players = [
        EnginePlayer(lexicon, level, player_seed(args.seed, seat))
        for seat, level in enumerate(levels)
    ]
    play_to_end(game, players)
    names = [f"Joueur {i + 1}" for i in range(args.players)]
    if args.json:
        seats = [{"name": n, "level": lv} for n, lv in zip(names, levels, strict=True)]
        path = str(Path(args.lexicon).resolve())  # a hint for replay on this machine
        record = game_to_record(game, players=seats, lexicon=lexicon.identity, lexicon_path=path)
        print(json.dumps(record, ensure_ascii=False, indent=1))
    else:
        ident = lexicon.identity
        title = f"Classic game, seed {args.seed}, lexicon {ident.name} ({ident.sha256[:12]})"
        print(score_sheet(game, names, title))
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    record = load_record(read_text(args.record, "record", "cli.record"))
    named = (record.data.get("lexicon") or {}).get("path")
    diff = replay(record, lexicon=load_lexicon(record_lexicon(args.lexicon, named, args.record)))
    if args.json:
        print(json.dumps(diff.to_json() if diff else None, ensure_ascii=False, default=str))
    elif diff:
        print(diff)
    else:
        totals = ", ".join(str(t["score"]) for t in record.data["totals"])
        print(f"The record reproduces: {len(record.turns)} turns, final scores {totals}.")
    return 1 if diff else 0


def _pairing_input(data: Any) -> tuple[list[str], list[Result]]:
    """``{"players": [names in seeding order], "results": [{"round", "first", "second"
    (null: bye), "scores": [first's, second's] or "forfeit": name}]}``."""
    try:
        names = [str(n) for n in data["players"]]
        ids = {n: i for i, n in enumerate(names)}
        results = []
        for r in data.get("results", []):
            second = r.get("second")
            scores = r.get("scores") or [None, None]
            forfeit = r.get("forfeit")
            results.append(
                Result(int(r["round"]), ids[r["first"]], None if second is None else ids[second],
                       scores[0], scores[1], None if forfeit is None else ids[forfeit])
            )  # fmt: skip
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise EngineError(
            "cli.pairing_file",
            "The pairing file is {players: [...], results: [{round, first, second, scores}]} "
            f"with known names ({exc}).",
        ) from exc
    return names, results


def cmd_pair(args: argparse.Namespace) -> int:
    try:
        data = json.loads(read_text(args.file, "pairing file", "cli.pairing_file"))
    except json.JSONDecodeError as exc:
        raise EngineError("cli.pairing_file", f"The pairing file is not JSON ({exc}).") from exc
    names, results = _pairing_input(data)
    rnd = args.round or 1 + max((r.round for r in results), default=0)
    tables = pair_round(args.system, list(range(len(names))), results, round_number=rnd,
                        fontes_rounds=args.fontes_rounds, seed=args.seed)  # fmt: skip
    if args.json:
        out = [
            {"table": t.number, "first": names[t.first],
             "second": None if t.second is None else names[t.second]}
            for t in tables
        ]  # fmt: skip
        print(json.dumps({"round": rnd, "tables": out}, ensure_ascii=False, indent=1))
        return 0
    print(f"Round {rnd} ({args.system})")
    for t in tables:
        other = "bye" if t.second is None else names[t.second]
        print(f"{t.number:>3}  {names[t.first]:<20} {other}")
    print("Standings before the round:")
    for row in standings(list(range(len(names))), results):
        print(f"{row.rank:>3}. {names[row.player]:<20} {row.wins_text():>4} {row.spread:>+6}")
    return 0


def add_parsers(subparsers: Any) -> None:
    """Register ``classic play`` and ``classic replay`` on the engine's sub-command parser."""
    classic = subparsers.add_parser("classic", help="classic games: play, replay, pair")
    commands = classic.add_subparsers(dest="classic_command", required=True)
    play = commands.add_parser("play", help="play a seeded game between engine players")
    play.add_argument("--lexicon", required=True, help="lexicon file (lexicon build)")
    play.add_argument("--players", type=int, default=2, help="2 to 4 (default 2)")
    play.add_argument("--seed", required=True, type=int, help="0 to 2**64-1")
    play.add_argument("--level", default="best", help="best, weak, or one per player: best,weak")
    play.add_argument("--challenge", default="none", choices=CHALLENGE_RULES)
    play.add_argument("--challenge-points", type=int, default=0, help="with --challenge points")
    play.add_argument("--tie-break", default="ex_aequo", choices=TIE_BREAKS)
    play.add_argument("--json", action="store_true", help="print the game record")
    play.set_defaults(handler=cmd_play)
    again = commands.add_parser("replay", help="recompute a classic record, show the difference")
    again.add_argument("record", help="a tirage-classic JSON record")
    again.add_argument("--lexicon", help="lexicon file (default: the path the record names)")
    again.add_argument("--json", action="store_true", help="the difference as JSON")
    again.set_defaults(handler=cmd_replay)
    pair = commands.add_parser("pair", help="pair the next round of a classic tournament")
    pair.add_argument("file", help="JSON: {players: [...], results: [...]}")
    pair.add_argument("--system", default="swiss", choices=SYSTEMS)
    pair.add_argument("--round", type=int, help="default: the round after the last result")
    pair.add_argument("--fontes-rounds", type=int, default=3, help="with initial_fontes")
    pair.add_argument("--seed", type=int, default=0, help="with random")
    pair.add_argument("--json", action="store_true", help="the tables as JSON")
    pair.set_defaults(handler=cmd_pair)
