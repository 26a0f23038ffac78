"""One move: the page's examples scored by hand, the removal rule and every coded refusal.

Letter values used by hand below (page table): A1 C3 D2 E1 H4 K10 L1 N1 P3 R1 S1 T1 U1.
"""

from __future__ import annotations

import pytest

from engine.cards.rules import Placed, Play, evaluate, play_from_word
from engine.cards.table import Table, Word
from engine.errors import EngineError
from tests.engine.cards.conftest import table_of

CHAT = (0, 0, True, "CHAT", 0)  # laid by seat 0 across from the centre


def test_first_word_through_the_centre_counts_double():
    play = play_from_word(Table(), 0, -1, True, "CHAT")  # C(0,-1) H(0,0) A(0,1) T(0,2)
    outcome = evaluate(Table(), "ACHTXYZ", play, 0)
    assert [w.word.text for w in outcome.words] == ["CHAT"]
    assert outcome.score == (3 + 4 + 1 + 1) * 2 == 18
    assert outcome.removed == ()
    assert outcome.table.owners == {Word(0, -1, True, "CHAT"): 0}


def test_page_example_chat_becomes_achats():
    table = table_of(CHAT)
    play = play_from_word(table, 0, -1, True, "ACHATS")  # lays A at (0,-1) and S at (0,4)
    assert sorted(play.cards) == [Placed(0, -1, "A"), Placed(0, 4, "S")]
    outcome = evaluate(table, "ASEEEEE", play, 1)
    assert [w.word.text for w in outcome.words] == ["ACHATS"]
    assert outcome.score == 1 + 3 + 4 + 1 + 1 + 1 == 11  # no doubling after the first word
    # CHAT is now part of ACHATS: nothing is removed, ACHATS belongs to the mover.
    assert outcome.removed == () and outcome.discarded == ""
    assert outcome.table.owners == {Word(0, -1, True, "ACHATS"): 1}


def test_page_example_prime_on_a_letter_shared_by_two_words():
    # ES laid under the T of CHAT: E at (1,3) forms TE down and ES across.
    table = table_of(CHAT)
    cards = (Placed(1, 3, "E"), Placed(1, 4, "S"))
    plain = evaluate(table, "ES2", Play(cards), 1)
    assert sorted(w.word.text for w in plain.words) == ["ES", "TE"]
    assert plain.score == (1 + 1) + (1 + 1) == 4
    shared = evaluate(table, "ES2", Play(cards, "2", (1, 3)), 1)
    assert shared.score == (1 + 1) * 2 + (1 + 1) * 2 == 8  # both words hold the E
    alone = evaluate(table, "ES2", Play(cards, "2", (1, 4)), 1)
    assert alone.score == (1 + 1) * 2 + (1 + 1) == 6  # S is only in ES
    triple = evaluate(table, "ES3", Play(cards, "3", (1, 3)), 1)
    assert triple.score == 2 * 3 + 2 * 3 == 12
    # Removal: one letter of CHAT (the T) was used, so CHAT goes, but its T stays in TE.
    assert shared.removed == (Word(0, 0, True, "CHAT"),)
    assert shared.discarded == "ACH"
    assert dict(shared.table.cells) == {(0, 3): "T", (1, 3): "E", (1, 4): "S"}


def test_page_example_scrabble_bonus_with_seven_letter_cards():
    # ECHAUDER down through the H of CHAT: seven letter cards laid, no Prime card.
    table = table_of(CHAT)
    play = play_from_word(table, -2, 1, False, "ECHAUDER")
    assert len(play.cards) == 7
    outcome = evaluate(table, "ACDEERU", play, 1)
    assert outcome.bonus == 50
    assert outcome.score == (1 + 3 + 4 + 1 + 1 + 2 + 1 + 1) + 50 == 64
    assert outcome.removed == (Word(0, 0, True, "CHAT"),)  # only its H was used
    assert outcome.discarded == "ACT"


def test_scrabble_bonus_on_the_first_word_after_the_doubling():
    play = play_from_word(Table(), 0, -3, True, "ENTRAIS")
    outcome = evaluate(Table(), "AEINRST", play, 0)
    assert outcome.score == 7 * 2 + 50 == 64


def test_no_scrabble_with_six_letters_and_a_prime_card():
    # A hand of six letters and a Prime card cannot make a Scrabble (page): no bonus.
    table = table_of(CHAT)
    play = play_from_word(table, -2, 1, False, "ECHAUDE", prime="2", prime_at=(-2, 1))
    assert len(play.cards) == 6
    outcome = evaluate(table, "ACDEEU2", play, 1)
    assert outcome.bonus == 0
    assert outcome.score == (1 + 3 + 4 + 1 + 1 + 2 + 1) * 2 == 26


def test_a_joker_is_worth_nothing_and_shows_its_letter():
    table = table_of(CHAT)
    play = play_from_word(table, 0, 0, True, "CHATs")
    assert play.cards == (Placed(0, 4, "S", joker=True),)
    outcome = evaluate(table, "?", play, 1)
    assert outcome.score == 3 + 4 + 1 + 1 + 0
    assert outcome.table.cells[(0, 4)] == "s"


def test_parallel_move_using_two_letters_keeps_the_word():
    # AS laid under the A and T of CHAT forms AA and TS down: two letters of CHAT used.
    table = table_of(CHAT)
    outcome = evaluate(table, "AS", Play((Placed(1, 2, "A"), Placed(1, 3, "S"))), 1)
    assert sorted(w.word.text for w in outcome.words) == ["AA", "AS", "TS"]
    assert outcome.score == 2 + 2 + 2
    assert outcome.removed == ()
    assert Word(0, 0, True, "CHAT") in outcome.table.owners
    assert outcome.table.owners[Word(0, 0, True, "CHAT")] == 0


def test_the_movers_own_words_never_go():
    # Seat 1 laid CHAT earlier; its move touching one letter of it does not remove it.
    table = table_of((0, 0, True, "CHAT", 1))
    outcome = evaluate(table, "E", Play((Placed(1, 3, "E"),)), 1)
    assert outcome.removed == ()
    assert len(outcome.table) == 5


def test_an_untouched_word_of_another_player_goes():
    # Two separate words: seat 0's CHAT and seat 2's AS far below. Seat 1 plays on CHAT.
    table = table_of(CHAT, (5, 0, True, "AS", 2))
    outcome = evaluate(table, "S", play_from_word(table, 0, 0, True, "CHATS"), 1)
    assert outcome.removed == (Word(5, 0, True, "AS"),)  # no letter used: removed
    assert set(outcome.table.owners) == {Word(0, 0, True, "CHATS")}


def test_removal_never_leaves_part_of_a_word():
    # CHAT (seat 0) is held at C and H by seat 1's words EC and HO. Seat 1 adds TU on the T:
    # removing CHAT would leave "CH" standing, an incomplete word, so CHAT stays.
    table = table_of(CHAT, (-1, 0, False, "EC", 1), (0, 1, False, "HO", 1))
    outcome = evaluate(table, "U", Play((Placed(1, 3, "U"),)), 1)
    assert [w.word.text for w in outcome.words] == ["TU"]
    assert outcome.removed == ()
    assert Word(0, 0, True, "CHAT") in outcome.table.owners


def test_a_card_shared_with_a_kept_word_stays():
    # CHAT (seat 0) crosses seat 2's OH (down, through the H); seat 1 lays U under the T.
    # OH is untouched and not the mover's: it goes too, and every card of both words with it.
    table = table_of(CHAT, (-1, 1, False, "OH", 2))
    outcome = evaluate(table, "U", Play((Placed(1, 3, "U"),)), 1)
    assert outcome.removed == (Word(-1, 1, False, "OH"), Word(0, 0, True, "CHAT"))
    assert dict(outcome.table.cells) == {(0, 3): "T", (1, 3): "U"}
    assert outcome.discarded == "ACHO"
    # Had OH been the mover's, the H would stay with it.
    mine = table_of(CHAT, (-1, 1, False, "OH", 1))
    kept = evaluate(mine, "U", Play((Placed(1, 3, "U"),)), 1)
    assert kept.removed == (Word(0, 0, True, "CHAT"),)
    assert dict(kept.table.cells) == {(-1, 1): "O", (0, 1): "H", (0, 3): "T", (1, 3): "U"}
    assert kept.discarded == "AC"


@pytest.mark.parametrize(
    ("table", "hand", "play", "code"),
    [
        (Table(), "AB", Play(()), "play.empty"),
        (Table(), "AB", Play((Placed(0, 0, "A"), Placed(0, 0, "B"))), "play.same_square"),
        (Table(), "A", Play((Placed(0, 0, "A"), Placed(0, 1, "B"))), "play.not_in_hand"),
        (Table(), "AB", Play((Placed(0, 0, "A"), Placed(1, 1, "B"))), "play.line"),
        (Table(), "AB", Play((Placed(0, 0, "A"), Placed(0, 2, "B"))), "play.gap"),
        (Table(), "AB", Play((Placed(0, 1, "A"), Placed(0, 2, "B"))), "play.centre"),
        (Table(), "A", Play((Placed(0, 0, "A"),)), "play.short"),
        (Table(), "AB2", Play((Placed(0, 0, "A"), Placed(0, 1, "B")), "2", (0, 0)),
         "play.first_prime"),
        (table_of(CHAT), "AB", Play((Placed(5, 5, "A"), Placed(5, 6, "B"))), "play.not_connected"),
        (table_of(CHAT), "S", Play((Placed(0, 0, "S"),)), "play.occupied"),
        (table_of(CHAT), "S2", Play((Placed(0, 4, "S"),), "2", (3, 3)), "play.prime_square"),
        (table_of(CHAT), "S2", Play((Placed(0, 4, "S"),), "2", None), "play.prime_square"),
        (table_of(CHAT), "S", Play((Placed(0, 4, "S"),), "2", (0, 4)), "play.not_in_hand"),
        (table_of(CHAT), "S", Play((Placed(0, 4, "s"),)), "play.letter"),
        (table_of(CHAT), "S", Play((Placed(0, 4, "S"),), "X", (0, 4)), "play.prime_card"),
    ],
)  # fmt: skip
def test_refusals_carry_a_code(table, hand, play, code):
    with pytest.raises(EngineError) as caught:
        evaluate(table, hand, play, 1)
    assert caught.value.code == code
    assert caught.value.message  # a sentence for the player


def test_table_rejects_words_that_are_not_its_runs():
    with pytest.raises(ValueError):
        Table.from_words((Word(0, 0, True, "CHAT"), 0), (Word(0, 1, True, "HA"), 0))


def test_a_prime_card_may_go_on_a_card_already_in_the_word_formed():
    # Decision (docs/cards.md): "on one of its letters" includes the cards of CHAT in ACHATS.
    table = table_of(CHAT)
    play = play_from_word(table, 0, -1, True, "ACHATS", prime="3", prime_at=(0, 1))
    assert evaluate(table, "AS3", play, 1).score == 11 * 3
    beside = play_from_word(table, 0, -1, True, "ACHATS", prime="3", prime_at=(1, 1))
    with pytest.raises(EngineError) as caught:
        evaluate(table, "AS3", beside, 1)
    assert caught.value.code == "play.prime_square"
