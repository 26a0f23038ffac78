"""Reports from a game played through the services: every file is opened and read back.

The game is the hand-checked seed-7 game of test_game_services (conformance word list):

    round 1  ESIUHAN   HAINES  H4  26  cumul  26
    round 2  U+OEE?AF  AUlOFEE G6  70* cumul  96   (7 tiles placed: 20 + 50)
    round 3  YPUNASE   PAYES  13C  45  cumul 141

Anne plays the three tops and has the only score of round 2 (solo, +10 from 3 players):
26 + 70 + 45 + 10 = 151, négatif +10, 151/141 = 107.09 %. Bruno: 26 + 0 (FOUEE refused)
+ 45 = 71, négatif -70, 50.35 %. Chloé: 0 (late) + 0 (nothing) + 45 = 45, négatif -96,
31.91 %.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from openpyxl import load_workbook
from pypdf import PdfReader

from engine.board import Board
from engine.duplicate.record import load_record
from engine.duplicate.scoresheet import check_totals, scoring_settings
from tests.scenario import new_game
from tournaments import selectors
from tournaments.access import SYSTEM
from tournaments.models import ArbiterMembership, Player
from tournaments.reports.game_sheet import game_sheet_pdf
from tournaments.reports.record import game_data_from_record, read_record, record_json
from tournaments.reports.results import results_pdf
from tournaments.reports.sheets import arbiter_sheet_pdf, player_records_pdf
from tournaments.reports.slips import bulletins_pdf, corrections_pdf
from tournaments.reports.tables import ranking_csv, sigles_csv, workbook_xlsx
from tournaments.services import player_register, registration_arrive

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]


def pdf_text(content: bytes) -> str:
    """All the text of a PDF, thin spaces made plain for the comparisons."""
    reader = PdfReader(io.BytesIO(content))
    return "\n".join(page.extract_text() for page in reader.pages).replace("\u202f", " ")


def pdf_pages(content: bytes) -> int:
    return len(PdfReader(io.BytesIO(content)).pages)


def play(setup):
    """The seed-7 game above, three rounds."""
    anne, bruno, chloe = setup["players"]
    arbiter = setup["arbiter"]
    ArbiterMembership.objects.get_or_create(
        user=arbiter, tournament=setup["tournament"], defaults={"role": "head"}
    )
    Player.objects.filter(pk=anne.pk).update(club="Rennes", series="2A", category="Vermeil")
    Player.objects.filter(pk=bruno.pk).update(club="Brest", series="4B", category="Vermeil")
    Player.objects.filter(pk=chloe.pk).update(club="Nantes", series="2A", category="Junior")
    scenario = new_game(setup, seed=7)
    game = scenario.game

    r1 = scenario.open_round()
    scenario.propose(r1, anne, "HAINES", "H4", 26)
    scenario.propose(r1, bruno, "HAINES", "H4", 26)
    scenario.past_deadline(r1)
    scenario.propose(r1, chloe, "HAINES", "H4", 26)  # late: 0
    scenario.finish(r1)
    r2 = scenario.open_round()
    scenario.propose(r2, anne, "AUlOFEE", "G6", 70)
    scenario.propose(r2, bruno, "FOUEE", "G6", 20)  # invalid word: 0
    scenario.finish(r2)
    r3 = scenario.open_round()
    for player in (anne, bruno, chloe):
        scenario.propose(r3, player, "PAYES", "13C", 45)
    scenario.finish(r3)
    game.refresh_from_db()
    return game


@pytest.fixture
def game(tournament_setup):
    return play(tournament_setup)


def test_data_module_reads_the_game(game) -> None:
    sheet = selectors.game_data(game)
    assert [(r.number, r.rack, r.word, r.reference, r.score, r.scrabble, r.cumulative)
            for r in sheet.rounds] == [
        (1, "ESIUHAN", "HAINES", "H4", 26, False, 26),
        (2, "U+OEE?AF", "AUlOFEE", "G6", 70, True, 96),
        (3, "YPUNASE", "PAYES", "13C", 45, False, 141),
    ]  # fmt: skip
    assert sheet.top_total == 141
    board = Board(sheet.board)
    # HAINES on row H from column 4; AUlOFEE on row G from 6 (joker l on G8), PAYES down
    # column 13 from C to G, which also makes AULOFEES on row G.
    assert "".join(board.at(7, c) for c in range(3, 9)) == "HAINES"
    assert "".join(board.at(6, c) for c in range(5, 13)) == "AUlOFEES"
    assert "".join(board.at(r, 12) for r in range(2, 7)) == "PAYES"
    assert board.tile_count() == 6 + 7 + 5  # PAYES puts down all five letters
    totals = {line.player.name: line.total for line in sheet.players}
    assert totals == {"Anne": 151, "Bruno": 71, "Chloé": 45}
    bruno = next(line for line in sheet.players if line.player.name == "Bruno")
    assert [(m.score, m.kind) for m in bruno.moves] == [(26, "valid"), (0, "zero"), (45, "valid")]
    assert bruno.moves[1].code == "zero.invalid_word"


def test_game_sheet_pdf(game) -> None:
    rendered = game_sheet_pdf(selectors.game_data(game))
    assert rendered.content_type == "application/pdf"
    assert rendered.filename == "open-test-partie-1-feuille.pdf"
    text = pdf_text(rendered.content)
    assert "Open de test" in text and "Feuille de partie — partie 1" in text
    for expected in ("ESIUHAN", "U+OEE?AF", "YPUNASE", "HAINES", "AUlOFEE", "PAYES",
                     "H4", "G6", "13C", "96", "141", "page 1/1"):  # fmt: skip
        assert expected in text, expected
    lines = text.splitlines()
    # Round 2: score 70 then the scrabble mark then the cumulative 96.
    i = lines.index("AUlOFEE")
    assert lines[i : i + 5] == ["AUlOFEE", "G6", "70", "*", "96"]
    assert "Grille finale" in text


def test_results_pdf_per_game(game) -> None:
    rendered = results_pdf(selectors.results_data(game.tournament, game))
    text = pdf_text(rendered.content)
    lines = text.splitlines()
    # Rank, name, club, series, category, score, négatif, % (French comma), solos, warnings.
    i = lines.index("Anne")
    assert lines[i - 1 : i + 9] == ["1", "Anne", "Rennes", "2A", "Vermeil", "151", "+10",
                                    "107,09", "1", "0"]  # fmt: skip
    i = lines.index("Bruno")
    assert lines[i - 1 : i + 9] == ["2", "Bruno", "Brest", "4B", "Vermeil", "71", "-70",
                                    "50,35", "0", "0"]  # fmt: skip
    i = lines.index("Chloé")
    assert lines[i - 1 : i + 9] == ["3", "Chloé", "Nantes", "2A", "Junior", "45", "-96",
                                    "31,91", "0", "0"]  # fmt: skip
    assert "total des tops : 141" in text
    # Série 2 (2A, rules K6): Anne 1st, Chloé 2nd (3rd overall); category Vermeil: Anne, Bruno.
    assert "Série 2" in lines and "Série 4" in lines and "Catégorie Vermeil" in lines
    j = lines.index("Anne", lines.index("Série 2")) - 1
    # Rank in the série, the player's line, the overall rank last.
    assert lines[j : j + 9] == ["1", "Anne", "Rennes", "2A", "Vermeil", "151", "+10",
                                      "107,09", "1"]  # fmt: skip
    assert lines[j + 9 : j + 18] == ["2", "Chloé", "Nantes", "2A", "Junior", "45", "-96",
                                      "31,91", "3"]  # fmt: skip


def test_results_pdf_tournament_has_cumulative_and_game_rankings(game) -> None:
    text = pdf_text(results_pdf(selectors.results_data(game.tournament)).content)
    assert "Classement général — total des tops : 141" in text
    assert "107,09" in text and "-96" in text


def test_xlsx_numbers_are_numeric_cells(game) -> None:
    results = selectors.results_data(game.tournament)
    rendered = workbook_xlsx(results, [selectors.game_data(game)])
    wb = load_workbook(io.BytesIO(rendered.content))
    assert wb.sheetnames == ["Classement", "Scores", "Partie", "Décisions"]
    ws = wb["Classement"]
    assert ws.freeze_panes == "A2"
    header = [c.value for c in ws[1]]
    rows = {r[3]: r for r in ws.iter_rows(min_row=2, max_row=4, values_only=True)}
    col = {name: header.index(name) for name in ("Rang", "Score", "Négatif", "% du top")}
    anne, bruno, chloe = rows["Anne"], rows["Bruno"], rows["Chloé"]
    assert [anne[col["Rang"]], anne[col["Score"]], anne[col["Négatif"]]] == [1, 151, 10]
    assert [bruno[col["Score"]], bruno[col["Négatif"]]] == [71, -70]
    assert [chloe[col["Rang"]], chloe[col["Score"]], chloe[col["Négatif"]]] == [3, 45, -96]
    assert anne[col["% du top"]] == pytest.approx(1.0709)
    assert chloe[col["% du top"]] == pytest.approx(0.3191)
    assert ws.cell(row=2, column=col["% du top"] + 1).number_format == "0.00%"
    assert isinstance(ws.cell(row=2, column=col["Score"] + 1).value, int)
    scores = wb["Scores"]
    matrix = {r[1]: r[2:] for r in scores.iter_rows(min_row=2, values_only=True)}
    # Tops row, then credited round scores, solo bonus and total.
    assert matrix["Top"] == (26, 70, 45, None, 141)
    assert matrix["Anne"] == (26, 70, 45, 10, 151)
    assert matrix["Bruno"] == (26, 0, 45, 0, 71)
    assert matrix["Chloé"] == (0, 0, 45, 0, 45)
    partie = [r for r in wb["Partie"].iter_rows(min_row=2, values_only=True) if r[0]]
    assert [(r[0], r[1], r[3], r[4], r[5], r[6], r[7]) for r in partie] == [
        (1, "ESIUHAN", "HAINES", "H4", 26, None, 26),
        (2, "U+OEE?AF", "AUlOFEE", "G6", 70, "*", 96),
        (3, "YPUNASE", "PAYES", "13C", 45, None, 141),
    ]
    decisions = list(wb["Décisions"].iter_rows(min_row=2, values_only=True))
    assert {(r[1], r[3]) for r in decisions} == {(2, "Bruno"), (1, "Chloé"), (2, "Chloé")}


def test_ranking_csv_is_utf8_bom_semicolons(game) -> None:
    rendered = ranking_csv(selectors.results_data(game.tournament, game))
    assert rendered.content.startswith(b"\xef\xbb\xbf")
    lines = rendered.content.decode("utf-8-sig").splitlines()
    assert lines[0].startswith("Rang;Ex aequo;Table;Nom;")
    assert lines[1] == "1;;1;Anne;;Rennes;2A;Vermeil;151;10;107,09;1;0;0"
    assert lines[3] == "3;;3;Chloé;;Nantes;2A;Junior;45;-96;31,91;0;0;0"


def test_sigles_export_latin1_with_empty_table(game) -> None:
    # Table 4 stays empty; Denis at table 5 arrives in game 2, so scores 0 so far.
    denis = player_register(tournament_id=game.tournament_id, name="Denis Lefèvre", table=5,
                            actor=SYSTEM)  # fmt: skip
    registration_arrive(registration_id=denis.pk, game_number=2, round_number=1, actor=SYSTEM)
    rendered = sigles_csv(game.tournament.slug, selectors.tables_data(game.tournament))
    assert rendered.content_type.endswith("iso-8859-1")
    assert "é".encode("latin-1") in rendered.content  # one byte, not UTF-8's two
    assert rendered.content.decode("latin-1").splitlines() == [
        '"1","Anne",151',
        '"2","Bruno",71',
        '"3","Chloé",45',
        '"4","--table vide--",-1',
        '"5","Denis Lefèvre",0',
    ]


def test_arbiter_sheet_running_totals(game) -> None:
    rendered = arbiter_sheet_pdf(selectors.game_data(game))
    text = pdf_text(rendered.content)
    lines = text.splitlines()
    # Each cell: round score over running total. Anne 26/26, 70/96, 45/141, solo 10, 151.
    i = lines.index("Anne")
    assert lines[i + 1 : i + 9] == ["26", "26", "70", "96", "45", "141", "10", "151"]
    i = lines.index("Bruno")
    assert lines[i + 1 : i + 8] == ["26", "26", "0", "26", "45", "71", "71"]
    assert "Feuille d'arbitrage — partie 1" in text


def test_player_records_show_top_and_gap(game) -> None:
    rendered = player_records_pdf(selectors.game_data(game))
    assert pdf_pages(rendered.content) == 3  # one page per player
    text = pdf_text(rendered.content)
    assert "page 2/3" in text and "table 2 — Bruno" in text
    lines = text.splitlines()
    # Bruno, round 2: FOUEE G6 credited 0, top AUlOFEE G6 70: gap -70, cumul 26 vs 96.
    i = lines.index("FOUEE")
    assert lines[i : i + 9] == ["FOUEE", "G6", "0", "AUlOFEE", "G6", "70", "-70", "26", "96"]
    assert "Total : 151 · négatif : +10 · solos : 1 (+10)" in text


def test_correction_slips_give_the_reasons(game) -> None:
    text = pdf_text(corrections_pdf(selectors.game_data(game)).content)
    assert "table 2 — Bruno" in text and "table 3 — Chloé" in text
    assert "table 1 — Anne" not in text
    assert "Zéro : mot non valable" in text and "FOUEE G6 (20)" in text
    assert "Zéro : bulletin remis après « terminé »" in text
    assert "Zéro : pas de bulletin" in text


def test_bulletins_numbered_for_every_round(game) -> None:
    # A game has about 18 to 25 rounds (rules, glossary): 25 bulletins per table, numbered
    # Coup 1 to Coup 25, each table on its own pages of 10 (3 pages, the last half full).
    info = selectors.tournament_info(game.tournament)
    rendered = bulletins_pdf(info, tables=[1, 2, 3], game_number=1)
    assert pdf_pages(rendered.content) == 9
    text = pdf_text(rendered.content)
    lines = text.splitlines()
    assert text.count("Référence") == 75 and "Réservé à l'arbitre" in text
    assert lines.count("Partie 1    Coup 25") == 3 and lines.count("Partie 1    Coup 1") == 3
    assert "Coup ____" not in text and "Coup 26" not in text
    short = pdf_text(bulletins_pdf(info, tables=[4], rounds=12).content)
    assert short.count("Référence") == 12 and "Partie ____    Coup 12" in short


def test_game_record_round_trip(game) -> None:
    record = selectors.game_record(game)
    rendered = record_json(record, tournament_slug="open-test", game_number=1)
    loaded = load_record(rendered.content)
    assert [r["top"]["word"] for r in loaded.rounds] == ["HAINES", "AUlOFEE", "PAYES"]
    assert loaded.data["totals"]["top"] == 141
    assert check_totals(loaded, scoring_settings(loaded)[1]) == []  # totals recompute
    totals = {t["player"]: t["total"] for t in loaded.data["totals"]["players"]}
    assert sorted(totals.values()) == [45, 71, 151]
    # Imported back as printable data: same tops, board and totals as from the database.
    direct = selectors.game_data(game)
    again = game_data_from_record(read_record(rendered.content), direct.tournament)
    assert again.rounds == direct.rounds and again.board == direct.board
    assert [p.total for p in again.players] == [151, 71, 45]
    assert "AUlOFEE" in pdf_text(game_sheet_pdf(again).content)


def test_export_command_writes_files(game, tmp_path) -> None:
    out = tmp_path / "feuille.pdf"
    call_command("tirage_export", "game-sheet", "--tournament", "open-test", "--game", "1",
                 "-o", str(out), stderr=io.StringIO())  # fmt: skip
    assert "AUlOFEE" in pdf_text(out.read_bytes())
    sig = tmp_path / "sigles.csv"
    call_command("tirage_export", "sigles", "--tournament", "open-test", "-o", str(sig),
                 stderr=io.StringIO())  # fmt: skip
    assert sig.read_bytes().decode("latin-1").splitlines()[2] == '"3","Chloé",45'
    rec = tmp_path / "partie.json"
    call_command("tirage_export", "record", "--tournament", "open-test", "--game", "1",
                 "-o", str(rec), stderr=io.StringIO())  # fmt: skip
    assert json.loads(rec.read_text())["format"] == "tirage-game"
    for kind in ("results", "arbiter-sheet", "player-records", "bulletins", "corrections",
                 "xlsx", "csv", "tablet-links"):  # fmt: skip
        target = tmp_path / f"out-{kind}"
        args = ["--game", "1"] if kind in ("arbiter-sheet", "player-records", "corrections") else []
        call_command("tirage_export", kind, "--tournament", "open-test", *args,
                     "-o", str(target), stderr=io.StringIO())  # fmt: skip
        assert target.stat().st_size > 200, kind


@pytest.mark.parametrize(
    "args",
    [
        ["nonsense", "--tournament", "open-test"],  # unknown kind
        ["results"],  # no --tournament
        ["results", "--tournament", "absent"],  # unknown tournament
        ["game-sheet", "--tournament", "open-test"],  # a game kind without --game
        ["game-sheet", "--tournament", "open-test", "--game", "9"],  # no such game
        ["sigles", "--tournament", "open-test", "--game", "1"],  # SIGLES is per tournament
    ],
)
def test_export_command_bad_arguments_exit_2(game, args) -> None:
    with pytest.raises(CommandError) as info:
        call_command("tirage_export", *args, stderr=io.StringIO())
    assert info.value.returncode == 2 and str(info.value)


def test_export_command_usage_error_from_the_shell(run_cli) -> None:
    result = run_cli("manage.py", "tirage_export", "nonsense", "--tournament", "x")
    assert result.returncode == 2
    assert "invalid choice" in result.stderr or "choix" in result.stderr
