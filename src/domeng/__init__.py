"""Domeng: the five-player domino game from South Sulawesi, for the PC."""

__version__ = "0.1.0"
