"""References per rules §3 N2 and §10 case 10."""

import pytest

from engine.errors import EngineError
from engine.notation import Reference, parse_reference


@pytest.mark.parametrize(
    ("text", "row", "col", "horizontal"),
    [
        ("H4", 7, 3, True),
        ("4H", 7, 3, False),
        ("h 4", 7, 3, True),
        ("15a", 0, 14, False),
        ("A1", 0, 0, True),
        ("O15", 14, 14, True),
        (" b 10 ", 1, 9, True),
    ],
)
def test_valid_references(text: str, row: int, col: int, horizontal: bool) -> None:
    assert parse_reference(text) == Reference(row, col, horizontal)


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("P1", "reference.row"),
        ("16A", "reference.column"),
        ("H0", "reference.column"),
        ("H04", "reference.column"),
        ("H4X", "reference.syntax"),
        ("", "reference.syntax"),
        ("4", "reference.syntax"),
        ("HH", "reference.syntax"),
    ],
)
def test_invalid_references(text: str, code: str) -> None:
    with pytest.raises(EngineError) as caught:
        parse_reference(text)
    assert caught.value.code == code
    assert str(caught.value)


def test_reference_text_round_trip() -> None:
    assert str(Reference(7, 3, True)) == "H4"
    assert str(Reference(7, 3, False)) == "4H"
    assert str(Reference(0, 14, False)) == "15A"
    assert str(Reference(7, 3, True).inverted()) == "4H"
