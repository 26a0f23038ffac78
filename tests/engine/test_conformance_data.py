"""The conformance data carried in tests/data/conformance is the reference set, unchanged.

The reference set lives in the maintainers' reference material, a ``shared/conformance``
folder beside the repository. A plain clone does not have it and needs no more than the
copy; where the folder is there, the copy must equal it byte for byte, and its README must
carry the reference README whole (tests/data/conformance/README.md adds the provenance).
"""

from __future__ import annotations

import hashlib
import json

import pytest

from tests.engine.conftest import CONFORMANCE, POSITIONS_FILE, conformance_positions

REFERENCE = CONFORMANCE.parents[2].parent / "shared" / "conformance"
FILES = ("positions.jsonl", "words-fr-libre.txt.gz")


@pytest.fixture
def reference():
    if not (REFERENCE / "README.md").exists():
        pytest.skip(
            "conformance-origin: no reference folder beside the repository to compare the "
            "copy with (only the maintainers have it; the copy's sha256 are in its README)"
        )
    return REFERENCE


@pytest.mark.parametrize("name", FILES)
def test_copy_equals_the_reference_set(reference, name: str) -> None:
    assert (CONFORMANCE / name).read_bytes() == (reference / name).read_bytes()


def test_readme_carries_the_reference_readme(reference) -> None:
    original = (reference / "README.md").read_text(encoding="utf-8")
    assert original in (CONFORMANCE / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("name", FILES)
def test_readme_states_the_sha256_of_each_copy(name: str) -> None:
    digest = hashlib.sha256((CONFORMANCE / name).read_bytes()).hexdigest()
    row = next(
        line
        for line in (CONFORMANCE / "README.md").read_text(encoding="utf-8").splitlines()
        if line.startswith(f"| `{name}`")
    )
    assert digest in row


def test_positions_are_the_381_described() -> None:
    positions = conformance_positions()
    assert len(positions) == 381
    assert len({p["id"] for p in positions}) == 381
    assert POSITIONS_FILE.read_text(encoding="utf-8").count("\n") == 381
    assert all(len(p["board"]) == 15 and p["top_score"] >= 0 for p in positions)
    assert json.loads(POSITIONS_FILE.read_text(encoding="utf-8").splitlines()[0])["rack"]
