"""Options that several sub-commands share."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import click

from domeng.engine import BlockPasses, Opening

F = TypeVar("F", bound=Callable[..., object])


def variant_options(f: F) -> F:
    """Add ``--opening`` and ``--block-passes``, the two rule variants, to a command."""
    f = click.option(
        "--block-passes",
        type=click.Choice([b.value for b in BlockPasses]),
        default=BlockPasses.PENALIZED.value,
        show_default=True,
        help="Variant: the passes of a blocked line cost STONES (penalized) or not (free).",
    )(f)
    f = click.option(
        "--opening",
        type=click.Choice([o.value for o in Opening]),
        default=Opening.DOUBLE.value,
        show_default=True,
        help="Variant: the first round opens with the starter's LEMPA (double) or any tile (free).",
    )(f)
    return f
