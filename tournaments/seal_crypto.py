"""Encryption of a sealed game's racks at rest (docs/simultaneous.md, docs/security.md).

Each line (the racks of one round) is encrypted with AES-256-GCM under the site's seal key,
with the game's id and the round's number as associated data: a line copied onto another
round or another game does not decrypt. A token is ``v1:`` then the URL-safe base64 of the
12-byte nonce and the ciphertext. The key comes from ``settings.TIRAGE_SEAL_KEY`` (one or
more URL-safe base64 32-byte keys, comma-separated, the first sealing); unset, it is derived
from ``SECRET_KEY`` by HKDF, except in the production profile, which refuses to seal or
release without a key of its own (a SECRET_KEY rotated for sessions must not lose the
event's racks). A game records the id of the key that sealed it (``key_id``, a hash, never
the key), so a missing or wrong key is named as such, not reported as a corrupt line.

Nothing here logs or puts a line's text into an error.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import os

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from django.conf import settings

from tournaments.errors import ServiceError

PREFIX = "v1:"


def generate_key() -> str:
    """A new key for ``TIRAGE_SEAL_KEY`` (URL-safe base64 of 32 random bytes)."""
    return base64.urlsafe_b64encode(os.urandom(32)).decode()


def _derived(secret: str) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=b"tirage-seal-key").derive(
        secret.encode()
    )


def _decode(text: str) -> bytes:
    try:
        key = base64.urlsafe_b64decode(text.strip().encode())
    except (binascii.Error, ValueError):
        key = b""
    if len(key) != 32:
        raise ServiceError(
            "seal.key_format", "TIRAGE_SEAL_KEY holds a value that is not a 32-byte key."
        )
    return key


def seal_keys() -> list[bytes]:
    """The configured keys, the sealing one first."""
    configured = [k for k in (settings.TIRAGE_SEAL_KEY or "").split(",") if k.strip()]
    if configured:
        return [_decode(k) for k in configured]
    if getattr(settings, "PRODUCTION", False):
        raise ServiceError("seal.no_key", "TIRAGE_SEAL_KEY is not set: nothing can be sealed.")
    return [_derived(settings.SECRET_KEY)]


def key_id(key: bytes) -> str:
    """A short public name of a key (a hash of it, which reveals nothing of the key)."""
    return hashlib.sha256(b"tirage-seal-key-id:" + key).hexdigest()[:16]


def _aad(game_id: int, number: int) -> bytes:
    return f"tirage-seal/v1/game={game_id}/round={number}".encode()


def sealing_key() -> tuple[str, bytes]:
    """``(key_id, key)`` of the key that seals now."""
    key = seal_keys()[0]
    return key_id(key), key


def seal_line(text: str, *, key: bytes, game_id: int, number: int) -> str:
    """The token of round ``number``'s line of game ``game_id``."""
    nonce = os.urandom(12)
    sealed = AESGCM(key).encrypt(nonce, text.encode(), _aad(game_id, number))
    return PREFIX + base64.urlsafe_b64encode(nonce + sealed).decode()


def unseal_line(token: str, *, sealed_with: str, game_id: int, number: int) -> str:
    """The line a token holds. Refused with ``seal.key`` when no configured key is the one
    that sealed it, ``seal.corrupt`` when the token does not decrypt (altered, or moved
    from another round)."""
    keys = {key_id(k): k for k in seal_keys()}
    key = keys.get(sealed_with)
    if key is None:
        raise ServiceError(
            "seal.key",
            f"The game was sealed with key {sealed_with}, which TIRAGE_SEAL_KEY does not hold.",
            key=sealed_with,
        )
    try:
        raw = base64.urlsafe_b64decode(token.removeprefix(PREFIX).encode())
        text = AESGCM(key).decrypt(raw[:12], raw[12:], _aad(game_id, number))
    except (InvalidTag, binascii.Error, ValueError):
        raise ServiceError(
            "seal.corrupt", f"Round {number}'s sealed line does not decrypt.", round=number
        ) from None
    return text.decode()
