"""How much duplicate scoring narrows a player's confidence interval (docs/tournaments.md).

Run ``python benchmarks/duplicate.py`` (about a minute on one core; ``--help``); the same
figures as ``domeng sim --duplicate-tables 2,3,5 --players basic,random,random,random,random
--rounds 400``, whose module (:mod:`domeng.sim.duplicate`) does the work and says what is
measured. Each line prints each score's mean per deal with its 95% interval's
half-width, the ratio of duplicate's half-width to that against the field, and how many
deals plain scoring would need for duplicate's width.
"""

from __future__ import annotations

import argparse
import time

from domeng.sim.duplicate import Narrowing, measure, play

__all__ = ["Narrowing", "main", "measure", "play"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=400)
    parser.add_argument("--tables", default="2,3,5", help="comma-separated table counts")
    parser.add_argument("--player", default="basic")
    parser.add_argument("--field", default="random")
    parser.add_argument("--seed", type=int, default=1)
    a = parser.parse_args()
    print(f"duplicate: {a.player} against a field of {a.field}, {a.deals} deals, seed {a.seed}")
    print("  mean STONES a deal ± the 95% interval's half-width")
    print("  plain: -own STONES; against the field: the field's STONES at the same seat of")
    print("  other tables on other tiles minus own; duplicate: the same, on the same tiles")
    for tables in (int(x) for x in a.tables.split(",")):
        if tables < 2:
            parser.error("duplicate needs two tables or more")
        start = time.perf_counter()
        n = measure(a.deals, tables, a.player, a.field, a.seed)
        (pm, ph), (om, oh), (dm, dh) = n
        print(
            f"  {tables} tables: plain {pm:.3f} ± {ph:.3f}; against the field {om:.3f} ± {oh:.3f};"
            f" duplicate {dm:.3f} ± {dh:.3f}; duplicate/field {n.ratio:.2f}: plain scoring needs"
            f" {n.plain_deals(a.deals):.0f} deals for duplicate's width over {a.deals}"
            f" ({time.perf_counter() - start:.0f} s)"
        )


if __name__ == "__main__":
    main()
