"""Ratings (domeng.history.ratings): every match of two or more players is rated, place 1
the best, equal places a tie; one player alone changes nothing; a rating is shown and
made cautious with twice its uncertainty."""

from __future__ import annotations

import pytest

from domeng.history.ratings import NEW, Rating, rate, shown


def test_two_players_are_rated_and_the_first_place_gains() -> None:
    first, second = rate([NEW, NEW], [1, 2])
    assert first.mu > NEW.mu > second.mu
    assert first.sigma < NEW.sigma and second.sigma < NEW.sigma


def test_one_player_alone_is_not_rated() -> None:
    assert rate([NEW], [1]) == [NEW]
    assert rate([], []) == []


def test_five_players_in_order_of_their_places() -> None:
    after = rate([NEW] * 5, [3, 1, 5, 2, 4])
    by_place = sorted(range(5), key=[3, 1, 5, 2, 4].__getitem__)
    mus = [after[n].mu for n in by_place]
    assert mus == sorted(mus, reverse=True) and len(set(mus)) == 5


def test_equal_places_tie() -> None:
    a, b = rate([NEW, NEW], [1, 1])
    assert a.mu == pytest.approx(b.mu) and a.mu == pytest.approx(NEW.mu)


@pytest.mark.parametrize("places", [[1], [1, 2, 3]])
def test_a_place_for_every_rating(places: list[int]) -> None:
    with pytest.raises(ValueError, match="one place for every rating"):
        rate([NEW, NEW], places)


def test_a_rating_is_shown_and_made_cautious_with_twice_its_uncertainty() -> None:
    r = Rating(27.04, 1.5)
    assert shown(r) == "27.0 ± 3.0"
    assert r.low == pytest.approx(24.04)
    assert NEW.low == pytest.approx(25 - 2 * 25 / 3)
