"""Game families: each registers, in one place, what the site needs to know about it.

The common core (tournaments, players, registrations, arbiters, the audit log, the console
and the API's tournament pages) is shared; a *family* (``duplicate`` and ``cards`` today;
``classic`` next) brings its own documents, wording and routes. Like pretix's registries, the
core never lists a family's parts itself: it asks this module, which holds what every
family module registered with :func:`register` when it was loaded (:data:`BUILT_IN`, in
order). A new family is one module here plus one line in :data:`BUILT_IN`; docs/architecture.md
("Game families") says what it brings.

Models stay in ``tournaments.models`` (one Django app, one migration history).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import import_module
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol

from django.urls import URLResolver, include, path
from django.utils.functional import Promise

if TYPE_CHECKING:
    from tournaments.models import Game, Tournament
    from tournaments.reports.base import Rendered

#: The families the site knows, loaded in this order (their documents are listed so).
BUILT_IN = (
    "tournaments.families.duplicate",
    "tournaments.families.cards",
    "tournaments.families.classic",
)

#: ``game``: the document is about one game (``game`` required); ``optional``: one game or
#: the whole tournament; ``tournament``: the whole tournament only (``game`` refused);
#: ``any``: the game is ignored.
GAME, OPTIONAL, TOURNAMENT, ANY = "game", "optional", "tournament", "any"

Progress = Callable[[int], None]


class Render(Protocol):
    """Builds a document's file: ``step`` is told the percentage done; ``base_url`` is the
    site's address (the tablet links)."""

    def __call__(
        self, tournament: Tournament, game: Game | None, /, *, base_url: str, step: Progress
    ) -> Rendered: ...


@dataclass(frozen=True, slots=True)
class Document:
    """One entry of the documents catalogue (console, API, ``tirage_export``, tasks)."""

    kind: str
    label: Promise
    scope: str
    #: Builds the file, called by ``tournaments.reports.documents.render_document`` once
    #: the scope is checked.
    render: Render = field(repr=False, compare=False)
    #: Long to build: the console builds it with a task (``ReportJob``) and shows progress.
    heavy: bool = False
    #: Heavy only for the whole tournament (no game given).
    heavy_whole: bool = False
    #: Its cost grows with players × games: above ``DIRECT_CELLS`` it is built by the
    #: worker only (``tournaments.reports.documents.by_worker``).
    sized: bool = False
    #: With ``sized``: its cost grows with the players only, whatever the games (the
    #: tablet links: a QR card a player), so its size is the players' count.
    per_player: bool = False

    def is_heavy(self, game: Game | None) -> bool:
        return self.heavy or (self.heavy_whole and game is None)


@dataclass(frozen=True, slots=True)
class Family:
    """What one game family registers.

    ``documents``: its entries of the documents catalogue; ``formulas``: the label of each
    formula code its games store (wording, French msgids); ``routes``: ``(prefix, urlconf
    module)`` pairs mounted at the site's root, for the audiences only this family has."""

    code: str
    label: Promise
    documents: tuple[Document, ...] = ()
    formulas: Mapping[str, Promise] = field(default_factory=dict)
    routes: tuple[tuple[str, str], ...] = ()


_FAMILIES: dict[str, Family] = {}
_loaded = False


def register(family: Family) -> Family:
    """Add a family (called once by its module); a code or document kind twice is a bug."""
    if family.code in _FAMILIES:
        raise ValueError(f"the game family '{family.code}' is registered twice")
    taken = {d.kind for f in _FAMILIES.values() for d in f.documents}
    if clash := taken & {d.kind for d in family.documents}:
        raise ValueError(f"document kinds registered twice: {sorted(clash)}")
    _FAMILIES[family.code] = family
    return family


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in BUILT_IN:
            import_module(module)


def families() -> tuple[Family, ...]:
    _load()
    return tuple(_FAMILIES.values())


def family(code: str) -> Family:
    """The registered family ``code`` (an unknown code is a bug: codes come from the code)."""
    _load()
    return _FAMILIES[code]


def documents() -> tuple[Document, ...]:
    """Every family's documents, in registration order."""
    return tuple(d for f in families() for d in f.documents)


def formula_labels() -> Mapping[str, Promise]:
    """The label shown for each formula code, across families."""
    return MappingProxyType({code: label for f in families() for code, label in f.formulas.items()})


def formula_label(code: str) -> str:
    """The formula's label in the request's language; an unknown code is shown as is."""
    label = formula_labels().get(code)
    return str(label) if label is not None else code


def urlpatterns() -> list[URLResolver]:
    """The routes every family mounts at the site's root (``tournaments/urls.py``)."""
    return [path(prefix, include(module)) for f in families() for prefix, module in f.routes]
