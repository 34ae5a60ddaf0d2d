"""Shared test settings."""

from hypothesis import settings

# Tests never assert on time: no per-example deadline, on CI or here.
settings.register_profile("domeng", deadline=None, print_blob=True)
settings.load_profile("domeng")
