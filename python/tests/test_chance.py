"""Probabilities from Python (issue 29): ``epipen.probability`` in comparisons with
``Fraction`` and ints, ``Story.prior``, a case's ``weight=``, ``Story.show``; and in run
results, ``result.shows`` and each world's ``probability`` (a Fraction, never a
constant of the world), in text, tables and pandas."""

from fractions import Fraction

import pytest

import epipen
from epipen import probability
from conftest import cli

MONTY_HALL = """enum Door { one, two, three }
characters Contestant, Host
Door car, pick
announce pick == one
Host learns car
actual car == two

event host_opens {
  opens_two if pick != two and car != two
  opens_three if pick != three and car != three
  opens_one if pick != one and car != one
  Contestant sees opens_one | opens_two | opens_three
  Host sees opens_one | opens_two | opens_three
  actual opens_three
}
check actual probability(Contestant, car == pick) == 1/3
check actual probability(Contestant, car == two) == 2/3
show probability(Contestant, car == two)
show car
"""

NO_ACTUAL = """characters A
int x
announce 1 <= x and x <= 3
prior x
show probability(x == 3)
show x
"""


def test_a_runs_shows_are_fractions_and_its_worlds_carry_probabilities(tmp_path):
    r = epipen.run(MONTY_HALL)
    assert all(c.holds for c in r.checks)
    assert [(s.line, s.expression, s.value) for s in r.shows] == [
        (18, "probability(Contestant, car == two)", Fraction(2, 3)),
        (19, "car", "two"),
    ]
    assert isinstance(r.shows[0].value, Fraction) and r.shows[0].probability
    assert not r.shows[1].probability and r.shows[1].values is None
    assert str(r.shows[0]) == "line 18: show probability(Contestant, car == two) = 2/3"
    # Each world's probability is an attribute, not a constant of the world.
    assert [w.probability for w in r.worlds] == [Fraction(1, 6), Fraction(1, 6), Fraction(1, 3), Fraction(1, 3)]
    assert r.worlds[2] == {"car": "two", "pick": "one", "host_opens": "opens_three"}
    assert "probability" not in r.worlds[0]
    assert r.worlds.probabilities == [Fraction(1, 6), Fraction(1, 6), Fraction(1, 3), Fraction(1, 3)]
    # The text is the command's.
    path = tmp_path / "monty.story"
    path.write_text(MONTY_HALL)
    assert str(r) == cli("run", str(path), check=0).stdout
    assert "car = two, pick = one, host_opens = opens_three   [1/3]" in str(r.worlds)


def test_without_an_actual_world_shows_are_grouped_by_value():
    r = epipen.run(NO_ACTUAL)
    storyteller, x = r.shows
    assert storyteller.value is None
    assert storyteller.values == [(Fraction(1, 2), 3)]
    assert x.values == [(1, 1), (2, 1), (3, 1)]
    assert str(storyteller) == "line 5: show probability(x == 3): 1/2 in 3 worlds"
    assert [w.probability for w in r.worlds] == [Fraction(1, 6), Fraction(1, 3), Fraction(1, 2)]


def test_a_story_without_chances_has_no_probabilities():
    r = epipen.run("characters A\nint x\nannounce x in {1, 2}\n")
    assert [w.probability for w in r.worlds] == [None, None]
    assert r.worlds.probabilities is None
    assert r.shows == []
    assert "probability" not in r.worlds._repr_html_()


def test_tables_and_pandas_have_a_probability_column():
    r = epipen.run(NO_ACTUAL)
    table = r.worlds._repr_html_()
    assert "<th><i>probability</i></th>" in table and "<td>1/6</td>" in table
    # The result's display says what the shows found, then the table.
    assert '<p class="epipen-show">line 5: show probability(x == 3): 1/2 in 3 worlds</p>' in r._repr_html_()
    pd = pytest.importorskip("pandas")
    df = r.worlds.to_pandas()
    assert list(df.columns) == ["x", "probability"]
    assert list(df["probability"]) == [Fraction(1, 6), Fraction(1, 3), Fraction(1, 2)]
    assert isinstance(df, pd.DataFrame)


def test_trace_and_model_worlds_keep_probabilities_apart():
    r = epipen.run(MONTY_HALL)
    steps = r.trace
    event = [s for s in steps if s.line == 8][0]
    assert all("probability" not in w for w in event.worlds)
    assert [w.probability for w in event.worlds] == [Fraction(1, 6), Fraction(1, 6), Fraction(1, 3), Fraction(1, 3)]
    assert "car = two, pick = one, host_opens = opens_three   [1/3]" in str(event)
    assert "opens_three   [1/3]" in steps._repr_html_()
    m = r.model()
    assert all("probability" not in w for w in m.worlds)
    assert [w.probability for w in m.worlds] == [Fraction(1, 6), Fraction(1, 6), Fraction(1, 3), Fraction(1, 3)]
    # The picture labels each world with its probability.
    assert m.svg.count('class="probability"') == 4 and ">1/6</text>" in m.svg


def monty_hall_story():
    s = epipen.Story()
    contestant, host = s.characters("Contestant Host")
    door = s.enumeration("Door", "one two three")
    car, pick = door.constant("car"), door.constant("pick")
    s.announce(pick == "one")
    s.learns(host, car)
    s.actual(car == "two")
    with s.event("host_opens") as e:
        two = e.case("opens_two", when=(pick != "two") & (car != "two"))
        three = e.case("opens_three", when=(pick != "three") & (car != "three"))
        one = e.case("opens_one", when=(pick != "one") & (car != "one"))
        e.sees(contestant, [one], [two], [three])
        e.sees(host, [one], [two], [three])
        e.actual(three)
    return s, contestant, car, pick


def test_monty_hall_through_the_story_answers_two_thirds():
    s, contestant, car, pick = monty_hall_story()
    switch = probability(contestant, car == "two")
    s.check_actual(switch == Fraction(2, 3))
    s.check_actual(probability(contestant, car == pick) == Fraction(1, 3))
    s.check_actual(1 - switch == probability(contestant, car == pick))
    s.check_actual(switch * 3 == 2)
    s.check_actual(switch / 2 == Fraction(1, 3))
    s.check_actual(Fraction(1, 2) < switch)
    with pytest.raises(epipen.StoryError):
        s.check_actual(switch > Fraction(3, 4))
    shown = s.show(switch)
    assert shown.value == Fraction(2, 3) and isinstance(shown.value, Fraction)
    assert shown.probability and shown.line is None
    assert str(shown) == "show probability(Contestant, car == two) = 2/3"
    assert s.show(car).value == "two"
    assert s.show(epipen.knows(contestant, car != "three")).value is True
    worlds = s.worlds()
    assert [w.probability for w in worlds] == [Fraction(1, 6), Fraction(1, 6), Fraction(1, 3), Fraction(1, 3)]
    assert "   [1/3]" in str(worlds)


def test_prior_weights_and_the_speakers_probability():
    s = epipen.Story()
    a, b = s.characters("A B")
    x = s.int("x")
    s.announce((x >= 1) & (x <= 3))
    s.prior(epipen.If(x == 3, 2, 1))
    with s.event("coin") as e:
        heads = e.case("heads", weight=x)
        tails = e.case("tails")
        e.sees(a, [heads], [tails])
    shown = s.show(probability(x == 3))
    assert shown.value is None and shown.values == [(Fraction(1, 2), 6)]
    assert sorted(v for v, _ in s.show(probability(a, x == 3)).values) == [Fraction(3, 8), Fraction(9, 16)]
    # In what A says, probability(φ) is A's: "I think x = 3 is not more likely than not".
    with pytest.raises(epipen.StoryError, match="needs its character"):
        s.says(a, epipen.knows(b, probability(x == 3) <= 1))
    s.says(a, probability(x == 3) <= Fraction(1, 2))
    assert [w["coin"] for w in s.worlds()] == ["tails"] * 3
    # A Case's weight by method, too; a storyteller's probability in an announcement.
    t = epipen.Story()
    y = t.int("y")
    t.announce(y.is_in([0, 1]))
    with t.event("draw") as e:
        e.case("big").weight(3)
        e.case("small").weight(1)
    t.check(probability(e.happened.event == "big") == Fraction(3, 4))


def test_probability_mistakes_are_errors():
    s = epipen.Story()
    a = s.character("A")
    x = s.int("x")
    s.announce(x.is_in([1, 2]))
    with pytest.raises(TypeError, match="exact"):
        probability(a, x == 1) > 0.5
    with pytest.raises(TypeError, match="compared with numbers"):
        probability(a, x == 1) == (x == 1)
    with pytest.raises(epipen.StoryError, match="knowledge"):
        s.prior(epipen.If(epipen.knows(a, x == 1), 2, 1))
    other = epipen.Story()
    b = other.character("B")
    with pytest.raises(epipen.StoryError, match="two different stories"):
        probability(b, x == 1)
    s.prior(x)
    with pytest.raises(epipen.StoryError, match="already given"):
        s.prior(x)
    z3 = epipen.Story(backend="z3")
    p = z3.bool("p")
    with pytest.raises(epipen.StoryError, match="probabilit"):
        z3.check(probability(p) <= 1)


def test_a_probability_is_no_value_and_its_speaker_a_character():
    # A probability compares into a formula; where a value goes, it is a TypeError
    # where it is written (not when the statement reaches the native story).
    s = epipen.Story()
    a = s.character("A")
    x = s.int("x")
    chance = probability(a, x == 1)
    with pytest.raises(TypeError, match="found a probability `probability\\(A, x == 1\\)`"):
        s.learns(a, chance)
    with pytest.raises(TypeError, match="found a probability"):
        epipen.If(x == 1, chance, chance)
    with pytest.raises(TypeError, match="found a probability"):
        epipen.knows_value(a, chance)
    s.announce(x.is_in([1, 2]))
    assert s.show(chance).values == [(Fraction(1, 2), 2)]
    # Not a character where one goes: a TypeError, as for knows and believes.
    with pytest.raises(TypeError, match="expected a character, found x"):
        probability(x, x == 1)
    with pytest.raises(TypeError, match="expected a character, found x"):
        epipen.knows(x, x == 1)
