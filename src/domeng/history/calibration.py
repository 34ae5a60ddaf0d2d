"""The computer levels' starting ratings, worked out from games they played against
each other, so that a new person is placed between them after a few games.

``domeng sim --players expert,basic,basic,random,random --rounds 1000 --calibrate FILE``
plays the tournament, then rates every round of its records (in the order played) with
the model of :mod:`.ratings`, and writes ``FILE`` (each level's mean rating over the
second half of the rounds: see :func:`calibrate`). The one shipped with Domeng is
``calibration.json`` beside this module (docs/players.md says how it was made);
``domeng serve --calibration FILE`` seats a new database's levels from another. A level
that sits in two seats of a round is one player: each seat is rated from the level's
rating, and the level takes the mean of what its seats came to.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from domeng.engine import Game

from .figures import round_figures
from .ratings import NEW, Rating, rate

SHIPPED = "calibration.json"
FORMAT = "domeng.calibration/1"


def calibrate(games: Iterable[tuple[Sequence[str], Game]]) -> dict[str, Rating]:
    """Every level's rating from every finished round of ``games`` (each: the seats'
    level names and the game), rated one after the other in the order given.

    A rating rated round after round follows the last rounds most (the model lets it
    drift, so that a player may change); a level does not change, so its calibrated
    rating is the mean of its ratings after each round of the second half (once the
    first half has brought it from a new player's), with the last round's sigma."""
    rounds = [(names, r) for names, game in games for r in game.rounds if r.finished]
    ratings: dict[str, Rating] = {}
    sums: dict[str, float] = {}
    counts: dict[str, int] = {}
    for n, (names, r) in enumerate(rounds):
        places = [f.place for f in round_figures(r)]
        after = rate([ratings.get(name, NEW) for name in names], places)
        pooled: dict[str, list[Rating]] = {}
        for name, new in zip(names, after, strict=True):
            pooled.setdefault(name, []).append(new)
        for name, got in pooled.items():
            ratings[name] = Rating(
                sum(g.mu for g in got) / len(got), sum(g.sigma for g in got) / len(got)
            )
            if 2 * n >= len(rounds):
                sums[name] = sums.get(name, 0.0) + ratings[name].mu
                counts[name] = counts.get(name, 0) + 1
    return {
        name: Rating(sums[name] / counts[name], r.sigma) if counts.get(name) else r
        for name, r in ratings.items()
    }


def anchored(
    base: dict[str, Rating],
    paired: dict[str, float],
    *,
    anchor: str = "basic",
    scale_by: str = "random",
    order: Sequence[str] = (),
    points: float | None = None,
) -> dict[str, Rating]:
    """Every level of ``paired`` rated by its paired result, on the scale of ``base``.

    ``paired[level]`` is the level's stones a round minus those of four ``anchor``
    opponents on the same deals (``benchmarks/trials.py``; fewer is better), the
    sharpest measure of strength there is. The ``anchor`` and ``scale_by`` levels keep
    their ratings of ``base`` (a tournament's calibration, which sets them far apart);
    a stone a round is worth as many rating points as the gap between those two
    ratings over the gap between their paired results, and every level is placed from
    the anchor by its own paired result. So the order of the ratings is the order of the
    paired results, whatever the tournament's rounds made of levels close together. The
    levels' sigma is the anchor's.

    ``order`` (weakest first) is the order the levels are built in (more thinking never
    makes a player worse in expectation): where the paired results of neighbours invert
    it, they are within their noise of each other, and the results are pooled to their
    mean (isotonic regression, pool-adjacent-violators), so such levels get one rating.

    ``points`` (rating points per stone a round) gives the scale from elsewhere, for
    example from a longer run of ``anchor`` against ``scale_by``, when this run's own
    gap between the two is too noisy to scale by."""
    paired = _pooled(paired, [n for n in order if n in paired])
    if anchor not in base or scale_by not in base:
        raise ValueError(f"the anchor {anchor!r} and {scale_by!r} need a rating")
    zero = paired.get(anchor, 0.0)
    top, bottom = base[anchor], base[scale_by]
    if points is None:
        if scale_by not in paired:
            raise ValueError(f"{scale_by!r} needs a paired result to scale by")
        span = paired[scale_by] - zero
        if span <= 0 or top.mu <= bottom.mu:
            raise ValueError(f"{anchor!r} must be stronger than {scale_by!r} in both measures")
        points = (top.mu - bottom.mu) / span
    elif not points > 0:
        raise ValueError("points must be above 0")
    out = {name: Rating(top.mu - points * (d - zero), top.sigma) for name, d in paired.items()}
    out[anchor] = top
    out[scale_by] = bottom
    return out


def _pooled(paired: dict[str, float], order: list[str]) -> dict[str, float]:
    """``paired`` made non-increasing along ``order`` by pooling adjacent violators."""
    blocks: list[tuple[list[str], float]] = []
    for name in order:
        blocks.append(([name], paired[name]))
        while len(blocks) > 1 and blocks[-2][1] < blocks[-1][1]:
            (a, x), (b, y) = blocks[-2], blocks[-1]
            blocks[-2:] = [(a + b, (x * len(a) + y * len(b)) / (len(a) + len(b)))]
    out = dict(paired)
    for names, value in blocks:
        for name in names:
            out[name] = value
    return out


def document(ratings: dict[str, Rating], *, rounds: int, command: str) -> dict[str, Any]:
    """A calibration as the JSON document ``--calibrate`` writes."""
    return {
        "format": FORMAT,
        "command": command,
        "rounds": rounds,
        "levels": {
            n: {"mu": round(r.mu, 4), "sigma": round(r.sigma, 4)}
            for n, r in sorted(ratings.items(), key=lambda kv: -kv[1].mu)
        },
    }


def parse(doc: object) -> dict[str, Rating]:
    """The levels' ratings from a calibration document (ValueError when it is not one)."""
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f"not a {FORMAT} document")
    levels = doc.get("levels")
    if not isinstance(levels, dict):
        raise ValueError("a calibration names its levels")
    out: dict[str, Rating] = {}
    for name, r in levels.items():
        try:
            mu, sigma = float(r["mu"]), float(r["sigma"])
        except (TypeError, KeyError, ValueError):
            raise ValueError(f"level {name!r} has no mu and sigma") from None
        if not sigma > 0:
            raise ValueError(f"level {name!r}: sigma must be above 0")
        out[str(name)] = Rating(mu, sigma)
    return out


def load(path: Path | None = None) -> dict[str, Rating]:
    """The calibration in ``path``, or the one shipped with Domeng."""
    if path is not None:
        return parse(json.loads(path.read_text(encoding="utf-8")))
    text = resources.files(__package__).joinpath(SHIPPED).read_text(encoding="utf-8")
    return parse(json.loads(text))


def starting(level: str, calibration: dict[str, Rating]) -> Rating:
    """A computer level's first rating: its calibrated one, or a new player's."""
    return calibration.get(level, NEW)
