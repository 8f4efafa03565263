"""epipen.Story: the Rust API's builder from Python, with Python's operators, and an
EpiPEn script ported line by line."""

import gc
import threading
import weakref
from fractions import Fraction

import pytest

import epipen as ep

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]

DATES = [(5, 15), (5, 16), (5, 19), (6, 17), (6, 18), (7, 14), (7, 16), (8, 14), (8, 15), (8, 17)]


def test_cheryl_as_the_rust_api_tells_it():
    s = ep.Story()
    albert, bernard = s.character("Albert"), s.character("Bernard")
    month, day = s.int("month"), s.int("day")
    s.announce(ep.tuple_in((month, day), DATES))
    s.learns(albert, month)
    s.learns(bernard, day)
    whispered = s.checkpoint("whispered")
    s.says(albert, ~ep.knows_value(albert, month, day) & ep.knows(albert, ~ep.knows_value(bernard, month, day)))
    s.says(bernard, ~ep.at(whispered, ep.knows_value(bernard, month, day)) & ep.knows_value(bernard, month, day))
    s.says(albert, ep.knows_value(albert, month, day))
    worlds = s.worlds(10)
    assert worlds == [{"month": 7, "day": 16}] and worlds.complete
    assert str(worlds[0]) == "month = 7, day = 16"


def test_cheryl_ported_from_epipen_line_by_line():
    # EpiPEn's listing (the paper's Figure 1), a line of epipen for each of its lines.
    s = ep.Story()  # start_story()
    Albert, Bernard = s.characters("Albert Bernard")  # Characters('Albert Bernard')
    month, day = s.ints("month day")  # Ints('month day')
    s.announce(ep.Or([ep.And(month == m, day == d) for (m, d) in DATES]))  # announce(storyteller, Or([...]))
    s.learns(Albert, month)  # learn_constant(Albert, month)
    s.learns(Bernard, day)  # learn_constant(Bernard, day)
    s.says(Albert, ep.Not(ep.knows_value(day)))  # announce(Albert, Not(know(value_of=day)))
    s.says(Albert, ep.Not(ep.knows_value(Bernard, month)))  # announce(Albert, Not(know(Bernard, value_of=month)))
    s.says(Bernard, ep.knows_value(month))  # announce(Bernard, know(value_of=month))
    s.says(Albert, ep.knows_value(day))  # announce(Albert, know(value_of=day))
    assert s.worlds() == [{"month": 7, "day": 16}]  # print_possible_worlds()


def test_consecutive_numbers_over_infinitely_many_worlds():
    s = ep.Story()
    anne, bill = s.characters(["Anne", "Bill"])
    a, b = s.ints("A, B")
    s.announce((a >= 0) & (b >= 0) & ((a == b + 1) | (b == a + 1)))
    s.learns(anne, a)
    s.learns(bill, b)
    s.says(anne, ~ep.knows_value(b))
    s.says(bill, ~ep.knows_value(a))
    middle = s.worlds(3)
    assert len(middle) == 3 and not middle.complete
    s.says(anne, ep.knows_value(b))
    s.says(bill, ep.knows_value(a))
    assert s.worlds() == [{"A": 1, "B": 2}, {"A": 2, "B": 3}]


def test_muddy_children_with_simultaneous_reveals():
    s = ep.Story()
    kids = s.characters("child", 3)
    muddy = s.bools("muddy", 3)
    assert [k.name for k in kids] == ["child[0]", "child[1]", "child[2]"]
    s.actual(muddy[0] & muddy[1] & ~muddy[2])
    for i, kid in enumerate(kids):
        s.learns(kid, *[m for j, m in enumerate(muddy) if j != i])
    s.announce(ep.Or(muddy))
    rounds = []
    while True:
        with s.simultaneously() as b:
            for kid, m in zip(kids, muddy):
                b.reveals(kid, ep.knows_value(kid, m))
        rounds.append(b.outcomes)
        if all(b.outcomes):
            break
    assert rounds == [[False, False, False], [True, True, False], [True, True, True]]
    # The function form, as the Rust API's closure.
    s2 = ep.Story()
    kids2, muddy2 = s2.characters("child", 2), s2.bools("muddy", 2)
    s2.actual(muddy2[0] & muddy2[1])
    s2.learns(kids2[0], muddy2[1])
    s2.learns(kids2[1], muddy2[0])
    s2.announce(ep.Or(muddy2))
    round = lambda b: [b.reveals(k, ep.knows_value(k, m)) for k, m in zip(kids2, muddy2)]
    assert s2.simultaneously(round) == [False, False]
    assert s2.simultaneously(round) == [True, True]


def test_group_knowledge_and_checks():
    s = ep.Story()
    kids = s.characters("child", 2)
    muddy = s.bools("muddy", 2)
    s.learns(kids[0], muddy[1])
    s.learns(kids[1], muddy[0])
    someone = ep.Or(muddy)
    s.check(ep.Implies(muddy[0] & muddy[1], ep.everyone_knows(kids, someone)))
    with pytest.raises(ep.StoryError) as e:
        s.check(ep.common_knowledge(kids, someone))
    assert e.value.message.startswith("the check fails in the world ")
    s.announce(someone)
    s.check(ep.common_knowledge(kids, someone))
    # Together they know whether each child is muddy.
    s.check(ep.distributed_knowledge(kids, muddy[0]) | ep.distributed_knowledge(kids, ~muddy[0]))


def test_belief_revised_as_the_story_file_revises_it():
    # stories/belief-revision.story's hunches, told in Python.
    s = ep.Story()
    holmes, watson = s.characters("Holmes Watson")
    suspect = s.enumeration("Suspect", "butler gardener cook")
    culprit = s.enum_constant(suspect, "culprit")
    s.actual(culprit == "cook")
    s.learns(holmes, culprit)
    s.expects(watson, culprit != "cook")
    s.expects(watson, culprit == suspect.butler)
    s.check(ep.believes(watson, culprit == "butler") & ep.believes_value(watson, culprit))
    with pytest.raises(ep.StoryError, match="the check fails"):
        s.check(ep.knows(watson, culprit == "butler"))  # a belief, not knowledge
    hunches = s.checkpoint("hunches")
    s.announce(culprit != "butler")
    # Revised to the next most plausible suspect, though nothing was said of him.
    s.check(ep.believes(watson, culprit == "gardener") & ~ep.believes(watson, culprit == "cook"))
    s.check(ep.at(hunches, ep.believes(watson, culprit == "butler")))
    s.check(ep.knows(holmes, ep.believes(watson, culprit == "gardener")))
    assert s.worlds() == [{"culprit": "gardener"}, {"culprit": "cook"}]
    # Holmes: "I believe it was the cook" (the speaker left out), which tells Watson.
    s.says(holmes, ep.believes(culprit == "cook") & ep.believes_value(culprit))
    s.check(ep.knows(watson, culprit == "cook"))
    worlds = s.worlds()
    assert worlds == [{"culprit": "cook"}]
    file = ep.run(
        "characters Holmes, Watson\nenum Suspect { butler, gardener, cook }\nSuspect culprit\n"
        "actual culprit == cook\nHolmes learns culprit\nWatson expects culprit != cook\n"
        "Watson expects culprit == butler\nannounce culprit != butler\n"
        "check believes(Watson, culprit == gardener)\nHolmes: believes(culprit == cook)\n"
    )
    assert file.worlds == worlds and all(c.holds for c in file.checks)


def test_belief_over_unbounded_ints():
    # stories/consecutive-numbers-belief.story's hunches: each believes a value of the
    # other's number, and knows it only when holding 0.
    s = ep.Story()
    anne, bill = s.characters("Anne Bill")
    a, b = s.ints("A B")
    s.announce((a >= 0) & (b >= 0) & ((a == b + 1) | (b == a + 1)))
    s.learns(anne, a)
    s.learns(bill, b)
    s.expects(anne, b > a)
    s.check(ep.believes(anne, b == a + 1) & ep.believes_value(anne, b))
    s.check(ep.Iff(ep.knows_value(anne, b), a == 0))
    with pytest.raises(ep.StoryError, match="the check fails"):
        s.check(ep.believes(bill, a == b + 1))  # Bill has no hunch
    assert repr(ep.believes(anne, b > 2)) == "believes(Anne, B > 2)"
    assert repr(ep.believes_value(anne, a, b)) == "believes_value(Anne, A, B)"


def test_belief_mistakes_are_story_errors_and_type_errors():
    s = ep.Story()
    a = s.character("A")
    p = s.bool("p")
    other = ep.Story()
    bob = other.character("Bob")
    with pytest.raises(TypeError, match="believes_value needs at least one expression"):
        ep.believes_value(a)
    with pytest.raises(TypeError, match="expected a character"):
        s.expects(p, p)
    with pytest.raises(ep.StoryError, match="the character belongs to another story"):
        s.expects(bob, p)
    with pytest.raises(ep.StoryError, match="two different stories"):
        ep.believes(bob, p) & p
    with pytest.raises(ep.StoryError, match="^`believes` needs a character here"):
        s.check(ep.believes(p))
    with pytest.raises(ep.StoryError, match="`actual` describes the world itself, without knowledge operators"):
        s.actual(ep.believes(a, p))
    # Nothing of that reached the story.
    assert s.worlds() == [{"p": False}, {"p": True}]


def test_enums_compare_with_variants_by_name():
    s = ep.Story()
    colour = s.enumeration("Colour", ["red", "green", "blue"])
    cloe = s.enum_constant(colour, "Cloe")
    anya = colour.constant("Anya")
    s.announce((cloe != "red") & (anya == cloe) & anya.is_in(["red", "blue"]))
    assert s.worlds() == [{"Cloe": "blue", "Anya": "blue"}]
    s2 = ep.Story()
    c2 = s2.enumeration("Colour", "red green")
    x = c2.constant("x")
    s2.announce(x == c2.green)
    assert s2.worlds() == [{"x": "green"}]
    with pytest.raises(ep.StoryError, match="has no variant `pink`"):
        x == "pink"


def test_hints_are_verified_or_refuted():
    s = ep.Story()
    anne, bill, cath = s.characters("Anne Bill Cath")
    a, b, c = s.ints("A B C")
    s.announce(ep.And(a > 0, b > 0, c > 0, ep.Or(a == b + c, b == a + c, c == a + b)))
    s.learns(anne, b, c)
    s.learns(bill, a, c)
    s.learns(cath, a, b)
    with s.assert_adds_ck(b != c) as block:
        block.says(anne, ~ep.knows_value(a))
    assert block.verdict == "verified"
    with pytest.raises(ep.RefutedError) as e:
        s.assert_adds_ck(b > 5, lambda block: block.says(anne, ep.knows_value(a)))
    assert e.value.message.startswith("the hint is wrong: ")
    # A failed statement has no effect: the story goes on.
    s.says(bill, ~ep.knows_value(b))
    assert len(s.worlds(5)) == 5


def test_a_hints_block_learns_values_of_every_type():
    s = ep.Story()
    anne = s.character("Anne")
    x, p = s.int("x"), s.bool("p")
    s.announce(x.is_in([1, 2]))
    with s.assert_adds_ck(True) as block:
        block.learns(anne, x, p)
        block.says(anne, ep.knows_value(x) & ep.knows_value(p))
    assert block.verdict == "verified"
    s.check(ep.knows_value(anne, x) & ep.knows_value(anne, p))
    # As the statement, a block's `learns` needs something to learn.
    with pytest.raises(ep.StoryError, match="^`learns` needs at least one expression$"):
        s.assert_adds_ck(True, lambda b: b.learns(anne))
    with pytest.raises(ep.StoryError, match="^`learns` needs at least one expression$"):
        s.learns(anne)
    # A mistake anywhere in a block stops it whole: the statements before it do not run.
    with pytest.raises(ep.StoryError, match="^`learns` needs at least one expression$"):
        with s.assert_adds_ck(True) as block:
            block.announce(x == 1)
            block.learns(anne)
    assert len(s.worlds()) == 4


def test_ints_are_exact_beyond_64_bits():
    s = ep.Story()
    x = s.int("x")
    s.announce((x * x == 2**80) & (x > 0))
    assert s.worlds() == [{"x": 2**40}]
    s2 = ep.Story()
    y = s2.int("y")
    s2.announce(y == 2**100 // 2**40 - 2**59)  # an exact intermediate of 100 bits
    assert s2.worlds() == [{"y": 2**60 - 2**59}]
    s3 = ep.Story()
    z = s3.int("z")
    s3.announce(z == -(2**70) // 2**10)
    assert s3.worlds()[0]["z"] == -(2**60)


def test_public_change_and_reveals():
    s = ep.Story()
    anne = s.character("Anne")
    x = s.int("x")
    s.announce(x.is_in([1, 2]))
    s.actual(x == 1)
    s.assign(x, x + 10)
    s.learns(anne, x)
    s.check(ep.knows_value(anne, x) & x.is_in([11, 12]))
    assert s.worlds() == [{"x": 11}, {"x": 12}]
    assert s.reveals(anne, x == 11) is True


def test_mistakes_are_story_errors_and_type_errors():
    s = ep.Story()
    a = s.character("A")
    x = s.int("x")
    p = s.bool("p")
    with pytest.raises(TypeError, match="no truth value"):
        if x > 1:
            pass
    # The options refused as epipen.run and epipen.sweep refuse them.
    for mistake, run in [
        ("backend='nope': the backends are 'auto', 'z3', 'bdd', 'explicit'", lambda: ep.Story(backend="nope")),
        ("timeout=-1: a number of seconds from 0 to 1e9 (None: no limit)", lambda: ep.Story(timeout=-1)),
        ("timeout='1': a number of seconds from 0 to 1e9 (None: no limit)", lambda: ep.Story(timeout="1")),
        ("timeout=-1: a number of seconds from 0 to 1e9 (None: no limit)", lambda: ep.run("int x\n", timeout=-1)),
        ("backend='nope': the backends are 'auto', 'z3', 'bdd', 'explicit'", lambda: ep.run("int x\n", backend="nope")),
        (
            "timeout=inf: a number of seconds from 0 to 1e9 (None: no limit)",
            lambda: ep.sweep("const n = 1\nint x\n", sets={"n": range(1, 3)}, timeout=float("inf")),
        ),
        (
            "backend='nope': the backends are 'auto', 'z3', 'bdd', 'explicit'",
            lambda: ep.sweep("const n = 1\nint x\n", sets={"n": range(1, 3)}, backend="nope"),
        ),
    ]:
        with pytest.raises(ValueError) as refused:
            run()
        assert str(refused.value) == mistake
    for limit in (-1, True, 2**70, 1.5):
        with pytest.raises(ValueError, match=f"^limit={limit!r}: how many worlds to list, 0 or more$"):
            s.worlds(limit)
    with pytest.raises(TypeError, match=r"^the character comes first: `knows\(A, …\)`, not after the formula$"):
        ep.knows(x > 1, a)
    # Python's chained comparisons and `in` ask for a truth value too.
    with pytest.raises(TypeError, match=r"as `\(a < x\) & \(x < b\)`"):
        s.announce(1 < x < 5)
    with pytest.raises(TypeError, match=r"`x == 1` .* as `x.is_in\(\[1, 2\]\)`"):
        s.announce(x in [1, 2])
    with pytest.raises(TypeError, match="expected a formula"):
        s.announce(x + 1)
    with pytest.raises(TypeError, match="expected an int expression"):
        x + p
    with pytest.raises(TypeError, match="divide with //"):
        x / 2
    with pytest.raises(ep.StoryError, match="^`x` is already declared") as declared:
        s.int("x")
    assert declared.value.hint == "names of characters and constants must be unique"
    with pytest.raises(ep.StoryError, match="^`A` is already declared"):
        s.bool("A")  # a character's name
    # A family is one declaration, and its members are declared with it.
    f = ep.Story()
    with pytest.raises(ep.StoryError, match=r"^`q\[1\]` is not a name") as member:
        f.bool("q[1]")
    assert member.value.hint == "a family's members are declared with it, as a family"
    f.bool("q")
    with pytest.raises(ep.StoryError, match=r"^`q` is already declared"):
        f.bools("q", 3)
    assert [repr(r) for r in f.ints("r", 2)] == ["r[0]", "r[1]"]
    assert f.worlds(1).names == ["q", "r[0]", "r[1]"]
    with pytest.raises(ep.StoryError, match="^`knows_value` needs a character here"):
        s.announce(ep.knows_value(x))
    with pytest.raises(ep.StoryError, match="a value learned with knowledge operators must be a formula"):
        s.learns(a, ep.If(ep.knows(a, p), x, 0))
    other = ep.Story()
    y = other.int("y")
    with pytest.raises(ep.StoryError, match="two different stories"):
        x + y
    with pytest.raises(ep.StoryError, match="another story"):
        s.announce(y > 1)
    with pytest.raises(ep.StoryError, match="^unknown checkpoint `later`"):
        s.announce(ep.at(ep.Checkpoint(s, "later"), p))
    # Nothing of that reached the story.
    s.announce(x > 1)
    assert s.worlds(2) == [{"x": 2, "p": False}, {"x": 2, "p": True}]
    # Learning a formula with knowledge operators is no mistake (since events).
    s.learns(a, ep.knows(a, p))
    assert s.worlds(2) == [{"x": 2, "p": False}, {"x": 2, "p": True}]


def test_a_mistake_lowering_finds_carries_its_message_and_hint_apart():
    s = ep.Story()
    s.character("Albert")
    with pytest.raises(ep.StoryError) as e:
        s.character("Albert")
    assert str(e.value) == "`Albert` is already declared (names of characters and constants must be unique)"
    assert e.value.message == "`Albert` is already declared"
    assert e.value.hint == "names of characters and constants must be unique"
    assert e.value.errors == [(None, None, "`Albert` is already declared")]
    # As in the Rust API, a character refused refuses every statement after it.
    with pytest.raises(ep.StoryError, match="^`Albert` is already declared"):
        s.announce(True)


def test_a_declared_name_is_a_name_and_a_family_has_a_size():
    s = ep.Story()
    hint = "a name is a letter or `_` followed by letters, digits and `_`, and no keyword"
    for name, message in [
        ("", "`` is not a name"),
        ("x y", "`x y` is not a name"),
        ("1x", "`1x` is not a name"),
        ("announce", "`announce` is a keyword, not a name"),
    ]:
        with pytest.raises(ep.StoryError) as e:
            s.int(name)
        assert (e.value.message, e.value.hint) == (message, hint)
    # A family's size is refused before its members are named (10**12 of them would not
    # fit in memory), as a story file's is.
    with pytest.raises(ep.StoryError, match="^a family may have at most 100000 members, found 1000000000000$"):
        s.bools("h", 10**12)
    with pytest.raises(ep.StoryError, match="^a family cannot have -1 members$"):
        s.ints("h", -1)
    # Wider than 64 bits too; past 128 bits, Python's own OverflowError.
    with pytest.raises(ep.StoryError, match="^a family may have at most 100000 members, found 2{20}$"):
        s.bools("h", 2 * (10**20 - 1) // 9)
    with pytest.raises(OverflowError):
        s.bools("h", 2**130)
    assert s.ints("h", 0) == []
    x = s.int("x")
    s.announce(x == 1)
    assert s.worlds() == [{"x": 1}]
    with pytest.raises(ep.StoryError, match="^a family may have at most 100000 members, found 1000000000000$"):
        ep.Story().characters("child", 10**12)


def test_expressions_print_as_stories_write_them():
    s = ep.Story()
    a = s.character("Anne")
    x, y = s.ints("x y")
    assert repr(x + 2 * y - x % 3) == "x + 2 * y - x % 3"
    assert repr((x + 1) * y) == "(x + 1) * y"
    assert repr(~(x == 3) & ep.knows(a, y > 2)) == "not x == 3 and knows(Anne, y > 2)"
    assert repr(ep.knows_value(a, x, y)) == "knows_value(Anne, x, y)"
    assert repr(ep.tuple_in((x, y), [(1, 2), (3, 4)])) == "(x, y) in {(1, 2), (3, 4)}"
    # As the story language's AST prints: what a story file would say.
    assert repr(abs(-x) + 2**70) == "abs(-x) + 256 * 4611686018427387904"
    assert repr(x + (2**70 + 5)) == "x + (256 * 4611686018427387904 + 5)"
    assert repr(ep.knows(~ep.knows_value(x)) | (x == y).implies(x >= -1)) == (
        "knows(not knows_value(x)) or (x == y -> x >= -1)"
    )
    assert repr(ep.probability(a, x > 1) >= Fraction(1, 3)) == "probability(Anne, x > 1) >= 1 / 3"


def test_a_python_range_is_a_range_membership_however_long():
    s = ep.Story()
    x, y = s.ints("x y")
    assert repr(x.is_in(range(1, 10**12))) == "x in 1..1000000000000"
    assert repr((x + 1).is_in(range(-2, 5))) == "x + 1 in -2..5"
    # Another step: the values listed.
    assert repr(x.is_in(range(1, 7, 2))) == "x in {1, 3, 5}"
    s.announce(x.is_in(range(1, 10**30)) & (x * x).is_in(range(2, 10)) & (y == 0))
    assert s.worlds() == [{"x": 2, "y": 0}, {"x": 3, "y": 0}]


def test_a_story_and_its_handles_are_collected():
    # Handles refer to their story, and the story to some of them: Python's collector
    # sees through the native handles, or each story (and its thread) would live on.
    def tell():
        s = ep.Story()
        a = s.character("A")
        x = s.int("x")
        s.announce(ep.knows(a, x > 0) | (x > 1))
        s.event("e", lambda e: e.case("c"))
        return weakref.ref(s)

    stories = [tell() for _ in range(3)]
    gc.collect()
    assert [s() for s in stories] == [None, None, None]


def test_a_story_is_used_from_any_thread():
    s = ep.Story()
    a = s.character("A")
    x = s.int("x")
    out = []
    t = threading.Thread(target=lambda: (s.announce((x > 0) & (x < 3)), out.append(s.worlds())))
    t.start()
    t.join()
    assert out == [[{"x": 1}, {"x": 2}]]
    s.learns(a, x % 2)
    assert len(s.worlds()) == 2


def test_options_reach_the_engine():
    s = ep.Story(backend="bdd")
    x = s.int("x")
    s.announce(x > 0)  # the first announcements wait for each other's bounds
    with pytest.raises(ep.StoryError, match="BDD backend needs every int bounded"):
        s.worlds()
    s.announce(x < 3)
    assert s.worlds() == [{"x": 1}, {"x": 2}]
    with pytest.raises(ValueError, match="the backends are"):
        ep.Story(backend="nope")


def test_a_character_learns_a_formula_with_knowledge():
    # A learns whether B knows p (issue 19: learns of a formula with knowledge operators).
    s = ep.Story()
    a, b = s.characters("A B")
    p = s.bool("p")
    s.learns(b, p)
    s.learns(a, ep.knows(b, p))
    s.check(ep.knows(a, ep.knows(b, p)) | ep.knows(a, ~ep.knows(b, p)))
    # B knows p exactly where p holds: so A, learning that, learns whether p.
    s.check(ep.knows(a, p) | ep.knows(a, ~p))
    assert s.worlds() == [{"p": False}, {"p": True}]


def test_an_agent_left_out_inside_another_characters_knowledge_is_a_story_error():
    # Bob's `knows_value` or Anne's? As in a story file, it must be named there.
    s = ep.Story()
    anne, bob = s.character("Anne"), s.character("Bob")
    a = s.int("A")
    s.announce((a >= 0) & (a <= 1))
    s.learns(anne, a)
    with pytest.raises(ep.StoryError) as e:
        s.says(bob, ep.knows(anne, ep.knows_value(a)))
    assert e.value.message == "`knows_value` inside `knows(Anne, …)` needs its character"
    assert e.value.hint == "write `knows_value(Anne, …)` for Anne's knowledge, or `knows_value(Bob, …)` for Bob's"
    with pytest.raises(ep.StoryError, match="`believes` inside `knows\\(Anne, …\\)`"):
        s.says(bob, ep.knows(anne, ep.believes(a == 1)))
    # Named, or inside Bob's own knowledge: the story goes on.
    s.says(bob, ep.knows(anne, ep.knows_value(anne, a)) & ep.knows(bob, ~ep.knows_value(a)))
    assert s.worlds(10) == [{"A": 0}, {"A": 1}]


def test_a_hint_or_a_check_over_no_world_is_vacuous():
    s = ep.Story()
    x = s.int("x")
    s.announce((x > 1) & (x < 1))
    assert s.assert_adds_ck(x == 3, lambda b: b.announce(x == 3)) == "vacuous"
    with pytest.raises(ep.StoryError, match="the check is vacuous: no world is possible"):
        s.check(x == 3)


def test_knows_whether_is_the_value_of_a_formula_known():
    s = ep.Story()
    anne, bob = s.character("Anne"), s.character("Bob")
    p = s.bool("p")
    s.actual(p)
    s.learns(anne, p)
    said = ep.knows_whether(anne, p)
    assert str(said) == "knows_whether(Anne, p)"
    assert s.reveals(anne, said) is True
    assert s.reveals(bob, ep.knows_whether(bob, ~p)) is False


def test_every_statement_refuses_an_expression_of_another_story():
    # Handles hold their expressions by name: a handle of another story with the same
    # names must not be read as this story's.
    def story():
        s = ep.Story()
        a = s.character("A")
        x = s.int("x")
        p = s.bool("p")
        s.announce(x.is_in([1, 2]))
        s.actual((x == 1) & p)
        return s, a, x, p

    s, a, x, p = story()
    _, _, y, q = story()
    statements = [
        lambda: s.announce(q),
        lambda: s.says(a, q),
        lambda: s.reveals(a, q),
        lambda: s.learns(a, y),
        lambda: s.check(q),
        lambda: s.check_actual(q),
        lambda: s.expects(a, q),
        lambda: s.assign(x, y),
        lambda: s.assign(y, 1),
        lambda: s.prior(y),
        lambda: s.show(y),
        lambda: s.event("e", lambda e: e.case("c", when=q)),
        lambda: s.event("e", lambda e: e.case("c", then={x: y})),
        lambda: s.event("e", lambda e: e.case("c", weight=y)),
        lambda: s.action("act", lambda b: b.case("c"), when=q),
        lambda: s.plan(q),
        lambda: s.assert_adds_ck(q, lambda b: b.announce(p)),
        lambda: s.assert_adds_ck(p, lambda b: b.announce(q)),
        lambda: s.simultaneously(lambda b: b.says(a, q)),
    ]
    for k, statement in enumerate(statements):
        with pytest.raises(ep.StoryError, match="another story") as e:
            statement()
        assert "another story" in str(e.value), k
    # Nothing of that reached the story.
    assert s.worlds() == [{"x": x_, "p": p_} for x_ in (1, 2) for p_ in (False, True)]


def test_names_told_in_text_have_handles_python_goes_on_with():
    s = ep.Story()
    s.tell(
        "const n = 2\ncharacters child[n], Anne\nenum Colour { red, green }\nbool muddy[n]\n"
        "int x\nColour wall\nannounce 0 <= x and x <= 2\ncheckpoint start\n"
        "event flip {\n  heads\n  tails\n  Anne sees heads | tails\n}\ndef small(v) = v < 1\n"
        "action shout by Anne {\n  done\n  Anne sees done\n}"
    )
    assert repr(s) == "<epipen.Story: 3 characters, 4 constants>"
    x, muddy, child1, wall = s.handle("x"), s.handle("muddy"), s.handle("child[1]"), s.handle("wall")
    assert isinstance(x, ep.Int) and repr(x) == "x"
    assert isinstance(muddy, list) and [repr(m) for m in muddy] == ["muddy[0]", "muddy[1]"]
    assert all(isinstance(m, ep.Bool) for m in muddy)
    assert isinstance(child1, ep.Character) and child1.name == "child[1]"
    colour = s.handle("Colour")
    assert isinstance(colour, ep.EnumType) and colour.variants == ["red", "green"]
    assert isinstance(wall, ep.EnumValue) and repr(s.handle("green")) == "green"
    assert s.handle("n") == 2
    start, flip = s.handle("start"), s.handle("flip")
    assert isinstance(start, ep.Checkpoint) and isinstance(flip, ep.EventHandle)
    assert flip.cases == ["heads", "tails"]
    # Python's statements take them, and name what text declared.
    assert isinstance(muddy[0], ep.Bool) and isinstance(muddy[1], ep.Bool)
    s.announce(muddy[0] & ~muddy[1] & (wall == "green") & (x == 2) & (flip == "tails"))
    s.learns(child1, muddy[0])
    s.check(ep.knows(child1, muddy[0]) & ep.at(start, ~ep.knows(child1, muddy[0])))
    assert s.worlds() == [{"muddy[0]": True, "muddy[1]": False, "x": 2, "wall": "green", "flip": "tails"}]
    # Names Python declared have handles too; unknown names, definitions and actions
    # raise, saying why.
    y = s.int("y")
    s.announce(y == x)
    assert repr(s.handle("y")) == "y" and repr(y) == "y"
    with pytest.raises(ep.StoryError) as unknown:
        s.handle("mudy")
    assert str(unknown.value) == "unknown name `mudy` (did you mean `muddy`?)"
    assert unknown.value.hint == "did you mean `muddy`?"
    with pytest.raises(ep.StoryError, match=r"^index 2 is out of range: `muddy` has 2 members \(0\.\.1\)$"):
        s.handle("muddy[2]")
    with pytest.raises(ep.StoryError, match=r"^`x` is not a family$"):
        s.handle("x[0]")
    with pytest.raises(ep.StoryError, match=r"`small` is a definition \(`def`\)"):
        s.handle("small")
    shout = s.handle("shout")
    assert isinstance(shout, ep.Action) and shout.declared and shout.name == "shout"
    assert shout.by is not None and shout.by.name == "Anne"
    (done,) = s.do(shout)
    assert (done.event.name, done.case) == ("shout", None)


def test_an_execution_after_executions_told_in_text_names_its_own_occurrence():
    s = ep.Story()
    flip = "event flip {\n  heads\n  tails\n  Anne sees heads | tails\n}\n"
    s.tell("characters Anne\n" + flip + flip)
    anne = s.handle("Anne")
    assert isinstance(anne, ep.Character)
    third = s.event("flip", lambda e: (e.case("heads"), e.case("tails"), e.sees(anne, ["heads"], ["tails"])))
    assert isinstance(third, ep.Happened)
    # The third execution's case is `flip#3`, not the first's.
    assert repr(third.occurrence) == "flip#3"
    s.announce(third.occurrence == "heads")
    assert [w["flip#3"] for w in s.worlds()] == ["heads"] * 4


def test_a_story_s_text_runs_as_a_story_file():
    s = ep.Story()
    albert, bernard = s.characters("Albert Bernard")
    month, day = s.ints("month day")
    dates = [(5, 15), (5, 16), (5, 19), (6, 17), (6, 18), (7, 14), (7, 16), (8, 14), (8, 15), (8, 17)]
    s.announce(ep.tuple_in((month, day), dates))
    s.learns(albert, month)
    s.learns(bernard, day)
    s.tell("checkpoint whispered")
    s.says(albert, ~ep.knows_value(month, day) & ep.knows(~ep.knows_value(bernard, month, day)))
    with pytest.raises(ep.StoryError, match="the check fails"):
        s.check(month == 13)  # fails: not in the text
    s.says(bernard, ~ep.at(s.handle("whispered"), ep.knows_value(month, day)) & ep.knows_value(month, day))
    s.says(albert, ep.knows_value(month, day))
    text = s.text()
    assert text.splitlines()[:4] == ["characters Albert", "characters Bernard", "int month", "int day"]
    assert "month == 13" not in text
    # The text, run as a file, tells the same story.
    assert ep.run(text).worlds == s.worlds() == [{"month": 7, "day": 16}]
    # An execution named by its handle has no story text.
    flips = ep.Story()
    anne = flips.character("Anne")
    flip = lambda e: (e.case("heads"), e.case("tails"), e.sees(anne, ["heads"], ["tails"]))  # noqa: E731
    flips.event("flip", flip)
    second = flips.event("flip", flip)
    assert isinstance(second, ep.Happened)
    flips.announce(second.occurrence == "heads")
    with pytest.raises(ep.StoryError, match=r"`announce flip#2 == heads` names an execution"):
        flips.text()


def test_a_story_of_every_kind_of_statement_retells_from_its_text():
    s = ep.Story()
    anne, bob = s.characters("Anne Bob")
    x, y = s.ints("x y")
    p = s.bools("p", 2)
    s.announce((x >= 0) & (x <= 3) & (y >= 0) & (y <= 1))
    s.prior(x + 1)
    s.actual((x == 2) & (y == 1) & p[0] & ~p[1])
    s.learns(anne, x % 2)
    with s.simultaneously() as block:
        block.announce(p[0] | p[1])
        block.says(anne, ep.knows(anne, x > 0) | ~ep.knows(anne, x > 0))
    s.assign_all({x: y, y: x})
    s.event(
        "flip",
        lambda e: (
            e.case("heads", weight=2),
            e.case("tails", then={y: 0}),
            e.sees(anne, ["heads"], ["tails"]),
            e.actual("heads"),
        ),
    )
    s.expects(bob, x == 1)
    shown = s.show(ep.probability(anne, x == 1))
    with s.action("tell", by=anne) as tell:
        tell.case("told", when=p[0])
    s.plan(ep.knows(bob, p[0]))  # a question: not in the text
    s.do(tell)
    text = s.text()
    assert "plan" not in text and "x, y := y, x" in text and "heads weight 2" in text
    again = ep.run(text, limit=100)
    # The same worlds with the same probabilities (listed in another order: a file
    # declares the events' constants before they happen), and the same `show`.
    key = lambda w: sorted(w.items())  # noqa: E731
    listed = sorted(((key(w), w.probability) for w in again.worlds))
    assert listed == sorted(((key(w), w.probability) for w in s.worlds(100)))
    assert len(listed) == 32
    assert [str(e) for e in again.events if e["kind"] == "show"] == [f"line 22: {shown}"]


def test_a_constant_the_story_cannot_take_now_raises_where_it_is_declared():
    s = ep.Story()
    s.character("A")
    p = s.bool("p")
    s.actual(p)
    with pytest.raises(ep.StoryError, match=r"^`zz` cannot join the story now: told again with it, the story fails \(`actual` must pin down"):
        s.int("zz")
    s.announce(p)  # the story goes on without it
    assert s.worlds() == [{"p": True}]
    with pytest.raises(ep.StoryError, match="unknown name `zz`"):
        s.tell("announce zz == 1")


def test_text_told_continues_the_story_in_the_language():
    s = ep.Story()
    anne = s.character("Anne")
    x = s.int("x")
    kids = s.characters("child", 2)
    muddy = s.bools("muddy", 2)
    s.announce((x >= 1) & (x <= 3))
    (listed,) = s.tell("int y\nannounce y == x + 1\nAnne learns y\nworlds 12")
    assert listed["kind"] == "worlds" and len(listed["worlds"]) == 12 and listed["worlds"].complete
    assert listed["worlds"][5] == {"x": 2, "muddy[0]": False, "muddy[1]": True, "y": 3}
    assert str(listed).startswith(
        "-- line 4: worlds --\n12 possible worlds:\n  x = 1, muddy[0] = false, muddy[1] = false, y = 2\n"
    )
    # Families declared in Python are families in text, and Python's handles name
    # what text declares by their names.
    s.tell("for i in 0..2 { child[i] learns muddy[1 - i] }\nannounce any(i in 0..2: muddy[i])")
    s.says(anne, ep.knows_value(anne, x))
    assert s.tell("check knows_value(Anne, x)") == []
    assert s.worlds(20).names == ["x", "muddy[0]", "muddy[1]", "y"]
    assert len(s.worlds(20)) == 9
    (where,) = s.tell("where muddy[0] and not muddy[1] and x == 2")
    assert where["kind"] == "where" and where["worlds"] == [{"x": 2, "muddy[0]": True, "muddy[1]": False, "y": 3}]
    # A text that fails has no effect, and its error is located in the text told.
    with pytest.raises(ep.StoryError) as wrong:
        s.tell("announce x > 1\nannounce z > 1")
    assert (wrong.value.line, wrong.value.column) == (10, 10)
    assert str(wrong.value).startswith("<told>:10:10: error: unknown name `z`")
    assert len(s.worlds(20)) == 9
    with pytest.raises(ep.SolverError, match="the check `x < 3` fails"):
        s.tell("check x < 3")
    plan = ep.Story()
    (found,) = plan.tell(open(ROOT / "stories" / "door-mat.story").read().split("\n# A plan")[0] + "\nplan bob_has_key")
    assert found["kind"] == "plan" and str(found) == "line 24: plan of 1 action: try_take"
