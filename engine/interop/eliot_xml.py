"""Eliot's saved-game XML (``<EliotGame format="2">``) as plain immutable values.

Eliot (the free duplicate Scrabble program) saves a game as a header (dictionary, mode,
variants, players) and a history of turns, each a list of the commands Eliot executed:
racks, the master move (the top), the game move (what went on the board), the players'
moves and their events. docs/eliot.md gives the element names and where they were read
(``game/xml_writer.cpp`` and ``game/xml_reader.cpp`` of Eliot's repository).

This module only reads and writes that shape; :mod:`engine.interop.eliot` turns it into a
game record by replaying it. The file is hostile input: no DOCTYPE (hence no entity, no
external entity, no "billion laughs"), bounded size, depth, element and text counts; every
refusal is an ``EngineError`` coded ``eliot.*``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from xml.parsers import expat
from xml.sax.saxutils import escape, quoteattr

from engine.errors import EngineError

FORMAT = "2"
MAX_BYTES = 5_000_000
MAX_ELEMENTS = 400_000
MAX_DEPTH = 8
MAX_TEXT = 500
MAX_TURNS = 150
MAX_PLAYERS = 2_000
MOVE_TYPES = ("valid", "invalid", "change", "pass", "none")
MODES = ("duplicate", "arbitration", "freegame", "training", "topping")
#: Tirage's own elements inside a ``<Turn>``: Eliot logs an unknown tag and goes on
#: (``xml_reader.cpp``), so they travel through Eliot's files without breaking them.
TIRAGE_REJECTED = "TirageRejectedRack"
TIRAGE_LEXICON = "TirageLexicon"


@dataclass(frozen=True, slots=True)
class EliotMove:
    """One ``MasterMove``/``GameMove``/``PlayerMove``: ``type`` is one of MOVE_TYPES."""

    type: str
    points: int = 0
    word: str = ""
    coord: str = ""
    letters: str = ""


@dataclass(frozen=True, slots=True)
class EliotPlayer:
    id: int
    name: str
    human: bool = True
    level: int | None = None
    table: int = 0


@dataclass(frozen=True, slots=True)
class EliotRejected:
    """A rack Tirage drew and rejected (our extension element; Eliot never writes one)."""

    rack: str
    reason: str


@dataclass(frozen=True, slots=True)
class EliotTurn:
    """One ``<Turn>``: the last ``GameRack`` (Eliot may set it more than once), the last
    valid ``MasterMove``, the ``GameMove``, each player's last ``PlayerMove`` and the
    events, in file order."""

    rack: str | None = None
    master: EliotMove | None = None
    game_move: EliotMove | None = None
    players: tuple[tuple[int, EliotMove], ...] = ()
    warnings: tuple[int, ...] = ()
    penalties: tuple[tuple[int, int], ...] = ()
    solos: tuple[tuple[int, int], ...] = ()
    rejected: tuple[EliotRejected, ...] = ()


@dataclass(frozen=True, slots=True)
class EliotDictionary:
    name: str = ""
    type: str = "dawg"
    letters: str = ""
    word_count: int | None = None


@dataclass(frozen=True, slots=True)
class EliotGame:
    dictionary: EliotDictionary
    mode: str
    variants: tuple[str, ...]
    players: tuple[EliotPlayer, ...]
    turns: tuple[EliotTurn, ...]
    #: Our lexicon's identity (the ``TirageLexicon`` attributes), when Tirage wrote the file.
    lexicon: tuple[tuple[str, str], ...] = ()


# -- reading ----------------------------------------------------------------------------
@dataclass(slots=True)
class _Node:
    name: str
    attrs: dict[str, str]
    children: list[_Node]
    text: str = ""

    def child(self, name: str) -> _Node | None:
        return next((c for c in self.children if c.name == name), None)

    def all(self, name: str) -> list[_Node]:
        return [c for c in self.children if c.name == name]

    def value(self, name: str) -> str:
        node = self.child(name)
        return node.text.strip() if node else ""


def _bad(message: str, **details: Any) -> EngineError:
    return EngineError("eliot.xml", message, **details)


def _tree(data: bytes) -> _Node:
    """The document as nodes, refusing any DOCTYPE, entity or processing instruction and
    stopping at the first bound passed (expat never fetches anything by itself)."""
    root = _Node("", {}, [])
    stack = [root]
    count = 0

    def start(name: str, attrs: dict[str, str]) -> None:
        nonlocal count
        count += 1
        if count > MAX_ELEMENTS:
            raise EngineError(
                "eliot.too_big", f"The file has more than {MAX_ELEMENTS} elements.",
                max=MAX_ELEMENTS,
            )  # fmt: skip
        if len(stack) > MAX_DEPTH:
            raise _bad(f"The elements are nested deeper than {MAX_DEPTH} levels.")
        if any(len(v) > MAX_TEXT for v in attrs.values()):
            raise _bad(f"An attribute of <{name}> is longer than {MAX_TEXT} characters.")
        node = _Node(name, dict(attrs), [])
        stack[-1].children.append(node)
        stack.append(node)

    def end(name: str) -> None:
        stack.pop()

    def text(data: str) -> None:
        node = stack[-1]
        if node.children:  # the indentation between a container's children
            return
        if len(node.text) + len(data) > MAX_TEXT:
            raise _bad(f"The text of <{node.name}> is longer than {MAX_TEXT} characters.")
        node.text += data

    def doctype(*_: Any) -> None:
        raise EngineError(
            "eliot.doctype", "The file declares a DOCTYPE or entities, which Eliot never writes."
        )

    parser = expat.ParserCreate("UTF-8")
    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = text
    parser.StartDoctypeDeclHandler = doctype
    parser.EntityDeclHandler = doctype
    parser.ExternalEntityRefHandler = doctype  # type: ignore[assignment]
    parser.ProcessingInstructionHandler = doctype
    try:
        parser.Parse(data, True)
    except expat.ExpatError as exc:
        raise _bad(f"The file is not well-formed XML ({exc}).", detail=str(exc)) from None
    if len(root.children) != 1:
        raise _bad("The file has no root element.")
    return root.children[0]


def _int(text: str, what: str, *, low: int = -10_000, high: int = 10_000) -> int:
    if not re.fullmatch(r"-?\d{1,6}", text.strip()):
        raise EngineError("eliot.value", f"{what}: '{text[:40]}' is not a whole number.", what=what)
    value = int(text)
    if not low <= value <= high:
        raise EngineError("eliot.value", f"{what}: {value} is out of range.", what=what)
    return value


def _move(node: _Node, where: str) -> EliotMove:
    kind = node.attrs.get("type", "")
    if kind not in MOVE_TYPES:
        raise EngineError(
            "eliot.move", f"{where}: '{kind[:20]}' is not a move type of Eliot.", where=where
        )
    points = _int(node.attrs.get("points", "0") or "0", f"{where}, points")
    attrs = node.attrs
    return EliotMove(kind, points, attrs.get("word", ""), attrs.get("coord", ""),
                     attrs.get("letters", ""))  # fmt: skip


def _player_id(node: _Node, known: set[int], where: str) -> int:
    # "playerid" is what Eliot wrote before its release 2.1 (xml_reader.cpp)
    text = node.attrs.get("playerId", node.attrs.get("playerid", ""))
    pid = _int(text, f"{where}, playerId", low=0, high=1_000_000)
    if pid not in known:
        raise EngineError(
            "eliot.player", f"{where}: there is no player {pid}.", where=where, player=pid
        )
    return pid


def _turn(node: _Node, number: int, known: set[int]) -> EliotTurn:
    where = f"turn {number}"
    rack: str | None = None
    master = game_move = None
    moves: dict[int, EliotMove] = {}
    warnings: list[int] = []
    penalties: list[tuple[int, int]] = []
    solos: list[tuple[int, int]] = []
    rejected: list[EliotRejected] = []
    for cmd in node.children:
        if cmd.name == "GameRack":
            rack = cmd.text.strip()
        elif cmd.name == "MasterMove":
            move = _move(cmd, f"{where}, MasterMove")
            master = move if move.type == "valid" else master
        elif cmd.name == "GameMove":
            game_move = _move(cmd, f"{where}, GameMove")
        elif cmd.name == "PlayerMove":
            moves[_player_id(cmd, known, where)] = _move(cmd, f"{where}, PlayerMove")
        elif cmd.name == "Warning":
            warnings.append(_player_id(cmd, known, where))
        elif cmd.name in ("Penalty", "Solo"):
            pid = _player_id(cmd, known, where)
            points = _int(cmd.attrs.get("points", "0") or "0", f"{where}, {cmd.name}")
            (penalties if cmd.name == "Penalty" else solos).append((pid, points))
        elif cmd.name == TIRAGE_REJECTED:
            rejected.append(EliotRejected(cmd.text.strip(), cmd.attrs.get("reason", "")))
        # PlayerRack repeats the game rack in duplicate; EndGame is the free game's;
        # anything else is ignored, as Eliot itself does.
    return EliotTurn(rack, master, game_move, tuple(sorted(moves.items())), tuple(warnings),
                     tuple(penalties), tuple(solos), tuple(rejected))  # fmt: skip


def read_eliot(data: bytes | str) -> EliotGame:
    """Read an Eliot saved game; ``eliot.*`` refusals for anything not Eliot's format 2."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if len(raw) > MAX_BYTES:
        raise EngineError(
            "eliot.too_big", f"The file is larger than {MAX_BYTES} bytes.", max=MAX_BYTES
        )
    root = _tree(raw)
    if root.name != "EliotGame":
        raise EngineError("eliot.format", "This is not an Eliot saved game (<EliotGame>).")
    if root.attrs.get("format") != FORMAT:
        version = root.attrs.get("format", "")[:10]
        raise EngineError(
            "eliot.version",
            f"This Eliot file is format '{version}'; Tirage reads format {FORMAT}.",
            version=version,
        )
    dic = root.child("Dictionary") or _Node("Dictionary", {}, [])
    count = dic.value("WordNb")
    words = _int(count, "WordNb", low=0, high=10**7) if count else None
    dictionary = EliotDictionary(dic.value("Name"), dic.value("Type") or "dawg",
                                 dic.value("Letters"), words)  # fmt: skip
    game = root.child("Game")
    if game is None:
        raise EngineError("eliot.format", "The file has no <Game> header.")
    mode = game.value("Mode")
    players: list[EliotPlayer] = []
    for p in game.all("Player"):
        if len(players) >= MAX_PLAYERS:
            raise EngineError(
                "eliot.too_big", f"The file has more than {MAX_PLAYERS} players.", max=MAX_PLAYERS
            )
        pid = _int(p.attrs.get("id", ""), "Player id", low=0, high=1_000_000)
        if any(q.id == pid for q in players):
            raise EngineError(
                "eliot.player", f"Two players have the id {pid}.", where="Game", player=pid
            )
        level = p.value("Level")
        table = p.value("TableNb")
        players.append(
            EliotPlayer(
                pid,
                p.value("Name"),
                p.value("Type") != "computer",
                _int(level, "Level", low=0, high=100) if level else None,
                _int(table, "TableNb", low=0, high=100_000) if table else 0,
            )  # fmt: skip
        )
    history = root.child("History")
    turn_nodes = history.all("Turn") if history else []
    if len(turn_nodes) > MAX_TURNS:
        raise EngineError(
            "eliot.too_big", f"The file has more than {MAX_TURNS} turns.", max=MAX_TURNS
        )
    known = {p.id for p in players}
    turns = tuple(_turn(t, i, known) for i, t in enumerate(turn_nodes, start=1))
    variants = tuple(v.text.strip() for v in game.all("Variant") if v.text.strip())
    lex = root.child(TIRAGE_LEXICON)
    lexicon = tuple(sorted(lex.attrs.items())) if lex is not None else ()
    return EliotGame(dictionary, mode, variants, tuple(players), turns, lexicon)


# -- writing ----------------------------------------------------------------------------
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _text(value: str) -> str:
    """Escaped text, without the characters XML 1.0 cannot hold (a name is user text)."""
    return escape(_NOT_XML.sub("", value))


def _attr(value: str) -> str:
    return quoteattr(_NOT_XML.sub("", value))


def _move_xml(tag: str, move: EliotMove, player: int | None = None) -> str:
    attrs = [] if player is None else [f'playerId="{player}"']
    attrs += [f'points="{move.points}"', f"type={_attr(move.type)}"]
    if move.type in ("valid", "invalid"):
        attrs += [f"word={_attr(move.word)}", f"coord={_attr(move.coord)}"]
    elif move.type == "change":
        attrs.append(f"letters={_attr(move.letters)}")
    return f"<{tag} {' '.join(attrs)} />"


def write_eliot(game: EliotGame) -> bytes:
    """The file Eliot's ``XmlWriter`` would write for this game (4-space indents, UTF-8),
    plus our extension elements, which Eliot skips."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', f'<EliotGame format="{FORMAT}">']
    d = game.dictionary
    lines += ["    <Dictionary>", f"        <Name>{_text(d.name)}</Name>",
              f"        <Type>{_text(d.type)}</Type>"]  # fmt: skip
    if d.letters:
        lines.append(f"        <Letters>{_text(d.letters)}</Letters>")
    if d.word_count is not None:
        lines.append(f"        <WordNb>{d.word_count}</WordNb>")
    lines += ["    </Dictionary>", "    <Game>", f"        <Mode>{_text(game.mode)}</Mode>"]
    lines += [f"        <Variant>{_text(v)}</Variant>" for v in game.variants]
    for p in game.players:
        lines += [f'        <Player id="{p.id}">', f"            <Name>{_text(p.name)}</Name>",
                  f"            <Type>{'human' if p.human else 'computer'}</Type>"]  # fmt: skip
        if not p.human:
            lines.append(f"            <Level>{p.level or 0}</Level>")
        lines += [f"            <TableNb>{p.table}</TableNb>", "        </Player>"]
    lines += [f"        <Turns>{len(game.turns)}</Turns>", "    </Game>", "    <History>"]
    for turn in game.turns:
        lines.append("        <Turn>")
        pad = " " * 12
        for r in turn.rejected:
            lines.append(f"{pad}<{TIRAGE_REJECTED} reason={_attr(r.reason)}>"
                         f"{_text(r.rack)}</{TIRAGE_REJECTED}>")  # fmt: skip
        if turn.rack is not None:
            lines.append(f"{pad}<GameRack>{_text(turn.rack)}</GameRack>")
            lines += [f'{pad}<PlayerRack playerId="{p.id}">{_text(turn.rack)}</PlayerRack>'
                      for p in game.players]  # fmt: skip
        lines += [pad + _move_xml("PlayerMove", m, pid) for pid, m in turn.players]
        lines += [f'{pad}<Warning playerId="{pid}" />' for pid in turn.warnings]
        lines += [f'{pad}<Penalty playerId="{pid}" points="{n}" />' for pid, n in turn.penalties]
        lines += [f'{pad}<Solo playerId="{pid}" points="{n}" />' for pid, n in turn.solos]
        if turn.master is not None:
            lines.append(pad + _move_xml("MasterMove", turn.master))
        if turn.game_move is not None:
            lines.append(pad + _move_xml("GameMove", turn.game_move))
        lines.append("        </Turn>")
    lines.append("    </History>")
    if game.lexicon:
        attrs = " ".join(f"{k}={_attr(v)}" for k, v in game.lexicon)
        lines.append(f"    <{TIRAGE_LEXICON} {attrs} />")
    lines.append("</EliotGame>")
    return ("\n".join(lines) + "\n").encode("utf-8")
