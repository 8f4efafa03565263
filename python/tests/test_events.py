"""epipen.Story's events (Story.event, the Rust API's Story::event), simultaneous change
(Story.assign_all) and check_actual: the stories of stories/ told in Python give the
files' worlds and check outcomes, and every mistake is a StoryError in the Rust API's
words, which runs nothing."""

import pytest

import epipen as ep
from conftest import STORIES


def outcome(check, formula) -> bool:
    """Whether a check holds (a failing one raises StoryError, and changes nothing)."""
    try:
        check(formula)
        return True
    except ep.StoryError as e:
        assert e.message.startswith("the check fails"), e.message
        return False


def sally_anne(form: str):
    """stories/sally-anne.story up to Sally's return, with the event in the `with` form,
    the function form, or with chained `when`/`then` and names for handles."""
    s = ep.Story()
    sally, anne = s.characters("Sally Anne")
    place = s.enumeration("Place", "hand basket box")
    marble = s.enum_constant(place, "marble")
    here = s.bool("here")
    s.announce((marble == "hand") & here)
    s.actual((marble == "hand") & here)
    s.assign(marble, place.basket)
    s.assign(here, False)
    if form == "with":
        with s.event("move") as e:
            moved = e.case("moved", when=marble == "basket", then={marble: "box"})
            stayed = e.case("stayed")
            e.sees(anne, [moved], [stayed])
            e.expects(sally, [stayed])
            e.actual(moved)
        happened = e.happened
    elif form == "function":

        def block(e):
            moved = e.case("moved", when=marble == "basket", then=[(marble, place.box)])
            stayed = e.case("stayed")
            e.sees(anne, [[moved], [stayed]])  # the Rust API's list of lists
            e.expects(sally, [[stayed]])
            e.actual(moved)

        happened = s.event("move", block)
    else:

        def block(e):
            e.case("moved").when(marble != "hand").when(marble == "basket").then(marble, "box")
            e.case("stayed")
            e.sees(anne, "moved", "stayed")  # names, each case a group
            e.expects(sally, "stayed")
            e.actual("moved")

        happened = s.event("move", block)
    s.assign(here, True)
    s.checkpoint("back")
    return s, (sally, anne), marble, happened


@pytest.mark.parametrize("form", ["with", "function", "chained"])
def test_sally_anne_gives_the_story_files_worlds_and_checks(form):
    s, (sally, anne), marble, happened = sally_anne(form)
    assert happened.case == "moved" and happened.case_index == 0
    assert happened.saw(sally) == ["moved", "stayed"] and happened.saw(anne) == ["moved"]
    assert str(happened) == "move: moved (Sally saw moved or stayed; Anne saw moved)"
    moving = happened.event
    assert moving.name == "move" and moving.cases == ["moved", "stayed"]
    assert repr(moving == "moved") == "move == moved"
    # The file's checks, in order, and some that fail, in both.
    checks = [
        ("marble == box and knows(Anne, marble == box)", (marble == "box") & ep.knows(anne, marble == "box")),
        ("not knows_value(Sally, marble)", ~ep.knows_value(sally, marble)),
        ("not knows(Sally, marble == basket)", ~ep.knows(sally, marble == "basket")),
        ("believes(Sally, marble == basket)", ep.believes(sally, marble == "basket")),
        ("believes_value(Sally, marble)", ep.believes_value(sally, marble)),
        (
            "believes(Sally, marble == basket) and marble != basket",
            ep.believes(sally, marble == "basket") & (marble != "basket"),
        ),
        ("knows(Anne, believes(Sally, marble == basket))", ep.knows(anne, ep.believes(sally, marble == "basket"))),
        ("knows(Anne, not believes(Sally, marble == box))", ep.knows(anne, ~ep.believes(sally, marble == "box"))),
        ("believes(Anne, believes(Sally, marble == basket))", ep.believes(anne, ep.believes(sally, marble == "basket"))),
        ("believes(Sally, believes(Anne, marble == basket))", ep.believes(sally, ep.believes(anne, marble == "basket"))),
        ("knows(Sally, not knows_value(Sally, marble))", ep.knows(sally, ~ep.knows_value(sally, marble))),
        # Failing ones: Sally's belief is not knowledge, and the marble moved.
        ("knows(Sally, marble == basket)", ep.knows(sally, marble == "basket")),
        ("move == stayed", moving == "stayed"),
        ("believes(Sally, move == moved)", ep.believes(sally, moving.is_(happened.event.case("moved")))),
    ]
    text = (STORIES / "sally-anne.story").read_text()
    head, tail = text.split("# Where is the marble?")
    tail = tail.split("# Sally looks into the basket")[1]
    ours = "".join(f"check actual {c}\n" for c, _ in checks)
    file = ep.run(head + ours + tail.split("\n", 1)[1])
    outcomes = [outcome(s.check_actual, f) for _, f in checks]
    assert outcomes == [c.holds for c in file.checks[: len(checks)]]
    assert outcomes == [True] * 11 + [False] * 3
    # Sally looks into the basket: her belief is revised by what she sees.
    s.learns(sally, marble == "basket")
    s.check_actual(ep.knows(sally, marble == "box") & ep.knows(sally, moving == "moved"))
    assert all(c.holds for c in file.checks[len(checks) :])
    worlds = s.worlds()
    assert worlds == file.worlds == ep.run_file(STORIES / "sally-anne.story").worlds
    assert worlds == [
        {"marble": "box", "here": True, "move": "moved"},
        {"marble": "basket", "here": True, "move": "stayed"},
    ]
    assert str(worlds).splitlines()[1] == "  marble = box, here = true, move = moved"


def test_a_coin_flip_gives_the_story_files_worlds_and_checks():
    s = ep.Story()
    a, b = s.characters("a b")
    heads = s.bool("heads")
    s.announce(heads)
    s.actual(heads)

    def flip(e):
        e.case("lands_heads", then={heads: True})
        e.case("lands_tails", then={heads: False})
        e.sees(b, "lands_heads", "lands_tails")
        e.actual("lands_heads")

    happened = s.event("flip", flip)
    assert str(happened) == "flip: lands_heads (a saw lands_heads or lands_tails; b saw lands_heads)"
    file = ep.run_file(STORIES / "coin-flip.story")
    assert [e for e in file.events if e["kind"] == "event"][0]["case"] == happened.case
    checks = [
        ep.knows(b, heads),
        ~ep.knows_value(a, heads),
        ep.knows(a, ep.knows_value(b, heads)),
        ep.common_knowledge([a, b], ep.knows_value(b, heads)),
    ]
    assert [outcome(s.check_actual, f) for f in checks] == [c.holds for c in file.checks] == [True] * 4
    assert s.worlds() == file.worlds
    assert s.worlds() == [{"heads": True, "flip": "lands_heads"}, {"heads": False, "flip": "lands_tails"}]
    # A knows that the coin shows heads exactly where it landed heads.
    s.check(ep.knows(b, heads.iff(happened.event == "lands_heads")))


def gossip(sequence):
    """stories/gossip.story (n = 4) told in Python: calls between agents, the others
    hearing only that a call took place; each caller learns what the other knew."""
    n = 4
    s = ep.Story()
    agents = s.characters("P", n)
    secret = s.bools("s", n)
    s.actual(ep.And(secret))
    for i in range(n):
        s.learns(agents[i], secret[i])
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    for t, pair in enumerate(sequence):
        before = s.checkpoint("before")
        with s.event("call") as e:
            cases = dict(zip(pairs, e.cases("c", pairs)))
            for k in range(n):
                mine = [cases[p] for p in pairs if k in p]
                e.sees(agents[k], *[[c] for c in mine], [c for p, c in cases.items() if k not in p])
            e.actual(cases[pair])
        assert e.happened.case == f"c[{pair[0]}, {pair[1]}]"
        call = e.happened.event
        for i, j in pairs:
            for k in range(n):
                told = ep.at(before, ep.knows(agents[i], secret[k]) | ep.knows(agents[j], secret[k]))
                s.learns(agents[i], (call == cases[(i, j)]) & told)
                s.learns(agents[j], (call == cases[(i, j)]) & told)
    return s, agents, secret


@pytest.mark.parametrize("sequence,number", [([(0, 1), (1, 2), (0, 2)], 1), ([(0, 1), (2, 3), (0, 2), (1, 3)], 2)])
def test_gossip_gives_the_story_files_worlds_and_checks(sequence, number):
    s, agents, secret = gossip(sequence)
    success = ep.And([ep.knows(p, x) for p in agents for x in secret])
    file = ep.run_file(STORIES / "gossip.story", sets={"sequence": number}, limit=200)
    assert [outcome(s.check_actual, success)] == [c.holds for c in file.checks] == [number == 2]
    assert s.worlds(200) == file.worlds
    assert "call#3" in file.worlds.names


def test_rounds_name_each_execution_as_the_language_does():
    s = ep.Story()
    a, b = s.characters("a b")
    heads = s.bool("heads")
    s.announce(heads)
    s.actual(heads)
    flips = []
    for landed in ["lands_tails", "lands_heads"]:
        with s.event("flip") as e:
            e.case("lands_heads", then={heads: True})
            e.case("lands_tails", then={heads: False})
            e.sees(b, "lands_heads", "lands_tails")
            e.actual(landed)
        flips.append(e.happened)
    assert flips[0].event.name == flips[1].event.name == "flip"
    # The handle is the latest execution; an occurrence keeps naming its own.
    s.check_actual(flips[0].event == "lands_heads")
    s.check_actual((flips[0].occurrence == "lands_tails") & (flips[1].occurrence == "lands_heads"))
    s.check_actual(ep.knows(b, flips[0].occurrence == "lands_tails"))
    assert outcome(s.check_actual, ep.knows_value(a, flips[0].occurrence)) is False
    source = (
        "characters a, b\nbool heads\nannounce heads\nactual heads\n"
        "for t in 0..2 {\n  event flip {\n    lands_heads then heads := true\n"
        "    lands_tails then heads := false\n    b sees lands_heads | lands_tails\n"
        "    if t == 0 { actual lands_tails } else { actual lands_heads }\n  }\n}\n"
    )
    file = ep.run(source)
    assert s.worlds() == file.worlds
    assert s.worlds().names == ["heads", "flip#1", "flip#2"]
    assert s.worlds()[0] == {"heads": True, "flip#1": "lands_heads", "flip#2": "lands_heads"}


def test_families_of_cases_and_sees_each():
    # A die of three faces, rolled in secret: Alice looks, Bob sees only whether it is
    # even, Cath sees nothing (the family's name puts all its cases in one group).
    s = ep.Story()
    alice, bob, cath = s.characters("Alice Bob Cath")
    die = s.int("die")
    s.announce(die == 0)
    s.actual(die == 0)
    with s.event("roll") as e:
        faces = e.cases("face", range(1, 4))
        for f, case in enumerate(faces, 1):
            case.then(die, f)
        e.sees_each(alice)
        e.sees(bob, [faces[0], faces[2]], [faces[1]])
        e.sees(cath, ["face"])
        e.actual("face[3]")
    assert [c.name for c in faces] == ["face[1]", "face[2]", "face[3]"]
    roll = e.happened.event
    assert e.happened.saw(bob) == ["face[1]", "face[3]"] and e.happened.saw(cath) == roll.cases
    s.check_actual(ep.knows_value(alice, die) & ~ep.knows_value(bob, die) & ep.knows(bob, die % 2 == 1))
    s.check(roll.is_in(["face[1]", faces[1], "face[3]"]))
    s.check(ep.Iff(roll == faces[1], die == 2))
    file = ep.run(
        "characters Alice, Bob, Cath\nint die\nannounce die == 0\nactual die == 0\n"
        "event roll {\n  for f in 1..4 { face[f] then die := f }\n"
        "  Alice sees each(f in 1..4: face[f])\n  Bob sees face[1], face[3] | face[2]\n"
        "  Cath sees face\n  actual face[3]\n}\n"
        "check actual knows_value(Alice, die) and not knows_value(Bob, die)\n"
    )
    assert s.worlds() == file.worlds and all(c.holds for c in file.checks)


def test_assign_all_changes_at_once():
    s = ep.Story()
    x, y = s.ints("x y")
    p = s.bool("p")
    s.announce((x == 1) & (y == 2))
    s.assign_all({x: y, y: x})
    assert s.worlds() == [{"x": 2, "y": 1, "p": False}, {"x": 2, "y": 1, "p": True}]
    s.assign_all([(x, x + y), (p, x > y)])
    assert s.worlds() == [{"x": 3, "y": 1, "p": True}] * 2  # two worlds before, the same values now
    file = ep.run("int x, y\nbool p\nannounce x == 1 and y == 2\nx, y := y, x\nx, p := x + y, x > y\n")
    assert s.worlds() == file.worlds
    with pytest.raises(ep.StoryError, match=r"^`x` is changed twice \(a constant gets one new value per change\)$"):
        s.assign_all([(x, 1), (x, 2)])
    with pytest.raises(ep.StoryError, match="^`assign_all` needs at least one change$"):
        s.assign_all({})
    with pytest.raises(ep.StoryError, match="`assign_all` needs a value of the constant's type"):
        s.assign_all({x: p})
    with pytest.raises(ep.StoryError, match="`assign_all` changes a constant"):
        s.assign_all({x + 1: 2})
    with pytest.raises(TypeError, match="a change is a"):
        s.assign_all([x])
    assert s.worlds() == [{"x": 3, "y": 1, "p": True}] * 2  # two worlds before, the same values now


def test_check_actual():
    s = ep.Story()
    anne = s.character("Anne")
    x = s.int("x")
    s.announce(x.is_in([1, 2, 3]))
    with pytest.raises(ep.StoryError):
        s.check_actual(x > 0)  # no actual world yet
    s.actual(x == 2)
    s.learns(anne, x > 1)
    s.check_actual(~ep.knows_value(anne, x))
    with pytest.raises(ep.StoryError, match="the check fails"):
        s.check(~ep.knows_value(anne, x))  # not where x = 1
    with pytest.raises(ep.StoryError, match="the check fails"):
        s.check_actual(x == 3)


def mistake(s, block, message):
    """The block is refused with exactly the Rust API's message, and runs nothing."""
    before = s.worlds(20)
    with pytest.raises(ep.StoryError) as e:
        s.event("move", block)
    assert str(e.value) == message
    assert s.worlds(20) == before and s.worlds(20).names == before.names


def test_every_event_mistake_is_a_story_error_in_the_rust_apis_words():
    s = ep.Story()
    anne, sally = s.characters("Anne Sally")
    place = s.enumeration("Place", "basket box")
    marble = s.enum_constant(place, "marble")
    x = s.int("x")
    s.announce(marble == "basket")
    other = ep.Story()
    bob = other.character("Bob")

    def both(e):
        return e.case("moved"), e.case("stayed")

    mistake(s, lambda e: None, "the event `move` has no cases (write its cases in the block, e.g. `moved if … then …`)")
    with pytest.raises(ep.StoryError, match="^an event needs a name$"):
        s.event("", both)
    mistake(
        s,
        lambda e: (e.case("moved"), e.case("moved")),
        "the case `moved` is written twice (every case of an event needs a name of its own)",
    )
    with pytest.raises(ep.StoryError, match="^`marble` is already declared"):
        s.event("marble", both)

    def unknown(e):
        both(e)
        e.sees(anne, ["moved"], ["mvoed"])

    mistake(s, unknown, "the event `move` has no case `mvoed` (did you mean `moved`?)")

    def unknown_actual(e):
        both(e)
        e.actual("zz")

    mistake(s, unknown_actual, "the event `move` has no case `zz` (its cases are `moved` and `stayed`)")

    def in_no_group(e):
        moved, _ = both(e)
        e.sees(anne, [moved])

    mistake(
        s,
        in_no_group,
        "the case `stayed` is in no group of Anne's `sees` line (every case is in exactly one group: add it, or end "
        "the line with `| others`)",
    )

    def in_two_groups(e):
        moved, stayed = both(e)
        e.sees(anne, [moved, stayed], [stayed])

    mistake(
        s,
        in_two_groups,
        "the case `stayed` is in two groups of Anne's `sees` line (every case is in exactly one group of the line)",
    )

    def twice_in_one(e):
        moved, stayed = both(e)
        e.expects(sally, [moved, moved], [stayed])

    mistake(
        s,
        twice_in_one,
        "the case `moved` is named twice in one group (every case is in exactly one group of the line)",
    )

    def expects_in_two(e):
        moved, stayed = both(e)
        e.expects(sally, [stayed], [moved], [stayed])

    mistake(
        s,
        expects_in_two,
        "the case `stayed` is in two groups of Sally's `expects` line (every case is in exactly one group of the line)",
    )

    def two_sees(e):
        moved, stayed = both(e)
        e.sees(anne, [moved], [stayed])
        e.sees_each(anne)

    mistake(
        s, two_sees, "Anne has two `sees` lines (one line says every group of cases a character tells apart)"
    )

    def two_expects(e):
        moved, stayed = both(e)
        e.expects(sally, [stayed])
        e.expects(sally, [moved], [stayed])

    mistake(
        s,
        two_expects,
        "Sally has two `expects` lines (one line orders the cases, most plausible first: `a > b, c`)",
    )

    def two_actual(e):
        moved, stayed = both(e)
        e.actual(moved)
        e.actual(stayed)

    mistake(s, two_actual, "the event has two `actual` lines (one case happened: keep one `actual` line)")

    # A case of another block (of this story or another).
    elsewhere = ep.Story()
    held = elsewhere.event("other", lambda o: o.case("moved"))
    assert held.case is None and str(held) == "other happened (no actual world)"
    kept = []
    elsewhere.event("other", lambda o: kept.append(o.case("moved")))

    def foreign(e):
        both(e)
        e.actual(kept[0])

    mistake(s, foreign, "the case `moved` is a case of another event block (`other`), not of this `move`")

    def foreign_in_sees(e):
        both(e)
        e.sees(anne, [kept[0]], ["stayed"])

    mistake(s, foreign_in_sees, "the case `moved` is a case of another event block (`other`), not of this `move`")

    # Changes: typed as `assign`, each constant once, constants only.
    mistake(
        s,
        lambda e: e.case("moved", then={marble: 3}),
        "`then` needs a value of the constant's type: the constant is an enum value, the value an int",
    )
    mistake(
        s,
        lambda e: e.case("moved", then=[(x, 1), (x, 2)]),
        "`x` is changed twice (a constant gets one new value per change)",
    )
    with pytest.raises(ep.StoryError, match="`then` changes a constant"):
        s.event("move", lambda e: e.case("moved", then={x + 1: 1}))
    mistake(
        s,
        lambda e: e.case("moved", then={x: ep.If(ep.knows(anne, x > 1), 1, 2)}),
        "`:=` gives a constant a value of the world, without knowledge operators",
    )
    # Without an actual world, `actual` is an error when the event runs.
    with pytest.raises(ep.StoryError) as e:
        s.event("move", lambda e: (both(e), e.actual("moved")))
    assert "actual" in e.value.message
    # A character or a handle of another story, and Python's own mistakes.
    with pytest.raises(ep.StoryError, match="the character belongs to another story"):
        s.event("move", lambda e: (both(e), e.sees(bob, ["moved"], ["stayed"])))
    with pytest.raises(TypeError, match="a case's name is a str"):
        s.event("move", lambda e: e.case(3))
    with pytest.raises(TypeError, match="a case is a Case"):
        s.event("move", lambda e: (both(e), e.sees(anne, [1], ["moved", "stayed"])))
    with pytest.raises(TypeError, match="an event's name is a str"):
        s.event(None, both)
    # An exception inside a `with` block runs nothing.
    with pytest.raises(KeyError):
        with s.event("move") as e:
            both(e)
            raise KeyError("oops")
    assert e.happened is None
    # Nothing of that reached the story: `move` is free, with any cases.
    with s.event("move") as e:
        e.case("moved", when=marble == "basket", then={marble: "box"})
    assert s.worlds(1).names == ["marble", "x", "move"]
    # The block has run: what comes after it is a mistake, and later executions need
    # the same cases.
    with pytest.raises(ep.StoryError, match="has run"):
        e.case("late")
    mistake(
        s,
        both,
        "the event `move` has other cases here (every `event move` has the same cases, in the same order: `moved`)",
    )


def test_naming_cases_in_formulas():
    s = ep.Story()
    anne = s.character("Anne")
    p = s.bool("p")
    s.actual(p)
    happened = s.event("tell", lambda e: (e.case("yes", when=p), e.case("no", when=~p), e.sees_each(anne)))
    assert happened.case == "yes"  # the only case possible in the actual world
    tell = happened.event
    s.check(ep.Iff(tell == "yes", p) & ep.Iff(tell.is_(tell.type.no), ~p))
    s.check(ep.knows(anne, p) | ep.knows(anne, ~p))
    with pytest.raises(ep.StoryError) as e:
        s.check(tell == "maybe")
    assert str(e.value) == "the event `tell` has no case `maybe` (its cases are `yes` and `no`)"
    assert e.value.message == "the event `tell` has no case `maybe`"
    assert e.value.hint == "its cases are `yes` and `no`"
    # A case handle of another event.
    cases = []
    s.event("flip", lambda e: (cases.append(e.case("heads")), e.case("tails"), e.actual("heads")))
    with pytest.raises(ep.StoryError) as e:
        s.check(tell == cases[0])
    assert e.value.message == "the case `heads` is a case of the event `flip`, not of `tell`"
    with pytest.raises(ep.StoryError, match="`tell` is an event"):
        tell.type.constant("t")
    with pytest.raises(ep.StoryError, match="`assign` changes a constant"):
        s.assign(happened.occurrence, "no")
    assert repr(tell.is_in(["yes", "no"])) == "tell in {yes, no}"
    file = ep.run(
        "characters Anne\nbool p\nactual p\nevent tell {\n  yes if p\n  no if not p\n"
        "  Anne sees each(c in 0..1: yes) | no\n}\nevent flip {\n  heads\n  tails\n  actual heads\n}\n"
    )
    assert s.worlds() == file.worlds and len(file.worlds) == 4
    assert s.worlds()[0] == {"p": True, "tell": "yes", "flip": "heads"}


def test_a_missing_or_impossible_actual_case_fails_when_the_event_runs():
    s = ep.Story()
    s.character("A")
    p = s.bool("p")
    with pytest.raises(ep.StoryError) as e:
        s.event("e", lambda e: (e.case("x"), e.actual("x")))
    assert str(e.value) == (
        "`actual x` needs the story's actual world, and none is declared yet; hint: declare it first "
        "with `actual …`, or remove this line"
    )
    s.actual(p)
    with pytest.raises(ep.StoryError) as e:
        s.event("e", lambda e: (e.case("x"), e.case("y")))
    assert str(e.value) == (
        "which case of `e` happened? `x`, `y` can happen in the actual world; hint: say which in the "
        "event's block, e.g. `actual x`"
    )
    with pytest.raises(ep.StoryError) as e:
        s.event("e", lambda e: (e.case("x", when=~p), e.case("y"), e.actual("x")))
    assert e.value.message == "the case `x` of `e` cannot happen in the actual world"
    assert e.value.hint == "its precondition is false there: name a case that can happen"
    assert str(e.value) == (
        "the case `x` of `e` cannot happen in the actual world; hint: its precondition is false there: "
        "name a case that can happen"
    )
    assert s.worlds() == [{"p": False}, {"p": True}] and s.worlds().names == ["p"]
    # Exactly one case possible in the actual world: no `actual` needed.
    assert s.event("e", lambda e: (e.case("x", when=~p), e.case("y"))).case == "y"


def test_a_case_handle_equals_its_name():
    s = ep.Story()
    s.bool("p")
    with s.event("e") as e:
        x, y = e.case("x"), e.case("y")
    assert e.happened.case is None  # no actual world
    assert x == "x" and x != y and x != "y" and {x: 1}[x] == 1 and repr(y) == "y"
    assert [c for c in [x, y] if c == "y"] == [y]


def test_if_of_event_handles_is_a_value_of_the_event():
    # `If(c, move, move)` is a value of the event's type, compared with its cases' names
    # (an event's handle is an enum value: `If` keeps the event's cases).
    s = ep.Story()
    (anne,) = s.characters("Anne")
    p = s.bool("p")
    s.actual(p)
    h = s.event("flip", lambda e: (e.case("heads", when=p), e.case("tails", when=~p)))
    chosen = ep.If(p, h.event, h.event)
    assert repr(chosen) == "if p then flip else flip"
    s.check_actual(chosen == "heads")
    assert not outcome(s.check_actual, chosen == "tails")
