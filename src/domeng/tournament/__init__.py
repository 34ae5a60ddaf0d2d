"""Club tournaments: the pure parts (docs/tournaments.md).

- :mod:`.scoring`: duplicate scores and table points, the standings and their ties;
- :mod:`.seating`: five to a table, reseated between rounds to meet new opponents;
- :mod:`.plan`: the formats, the limits, each round's deals from the seed;
- :mod:`.reading`: a table's game read into the scoring's figures.

The service's part (tournaments made, rounds started, tables watched) is
:mod:`domeng.server.tournaments`.
"""
