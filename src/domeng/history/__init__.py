"""Players who come back: what each finished round gives every player, their ratings,
and the recording of rounds into the storage (shared by the table service and the
terminal, which keep one database).

- :mod:`.figures`: one finished round's figures per seat, worked out by the engine;
- :mod:`.ratings`: OpenSkill's Plackett–Luce model over each round's order;
- :mod:`.calibration`: the computer levels' starting ratings (``domeng sim --calibrate``);
- :mod:`.recorder`: a game's finished rounds into the storage, each once.
"""
