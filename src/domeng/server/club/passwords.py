"""Members' passwords: kept as Argon2id hashes (argon2-cffi), and refused when weak.

A password is never logged nor stored as it is; it is hashed in a thread (an Argon2id
hash takes tens of milliseconds, on purpose) so the tables go on meanwhile.
"""

from __future__ import annotations

import asyncio
import functools
from importlib import resources

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

MIN_PASSWORD = 10
"""The shortest password accepted, in characters."""
MAX_PASSWORD = 200
"""The longest password accepted, in characters."""

HASHER = PasswordHasher()
"""Argon2id with argon2-cffi's parameters (RFC 9106's second recommended profile)."""


@functools.cache
def common_passwords() -> frozenset[str]:
    """The most common passwords (shipped with Domeng: ``common_passwords.txt``), lower
    case."""
    text = resources.files(__package__).joinpath("common_passwords.txt").read_text("utf-8")
    return frozenset(
        line.strip().casefold() for line in text.splitlines() if line.strip() and line[0] != "#"
    )


def weakness(password: str, name: str) -> str | None:
    """Why ``password`` is too weak for the member ``name`` (None: it is not)."""
    if len(password) < MIN_PASSWORD:
        return f"a password has at least {MIN_PASSWORD} characters"
    if len(password) > MAX_PASSWORD:
        return f"a password has at most {MAX_PASSWORD} characters"
    folded = password.casefold()
    if folded in common_passwords():
        return "that password is one of the most common ones"
    if name.casefold() in folded or len(set(folded)) < 4:
        return "that password is too easy to guess (a name, or too few different characters)"
    return None


async def hashed(password: str) -> str:
    """The password's Argon2id hash (in a thread)."""
    return await asyncio.to_thread(HASHER.hash, password)


def _matches(kept: str, password: str) -> bool:
    try:
        return HASHER.verify(kept, password)
    except (VerificationError, InvalidHashError):
        return False


async def matches(kept: str, password: str) -> bool:
    """Whether ``password`` is the one whose hash is ``kept`` (in a thread)."""
    return await asyncio.to_thread(_matches, kept, password)
