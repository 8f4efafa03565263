"""Long solves release the GIL, stop on Ctrl-C (or a notebook's interrupt, the same
SIGINT) with KeyboardInterrupt, and leave the package ready for the next solve."""

import subprocess
import sys
import textwrap
import threading
import time

import pytest

import epipen
from conftest import FERMAT, ROOT


def _python(code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, timeout=timeout, cwd=ROOT
    )


def test_ctrl_c_stops_a_long_solve():
    done = _python(
        f"""
        import os, signal, threading, time
        import epipen
        FERMAT = {FERMAT!r}
        threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        start = time.monotonic()
        try:
            epipen.run(FERMAT)
            print("no interrupt")
        except KeyboardInterrupt:
            print("interrupted after", round(time.monotonic() - start, 1))
        # The package answers the next question at once.
        r = epipen.run("characters A\\nint x\\nannounce x > 1 and x < 4\\n", backend="z3")
        print(r.worlds == [{{"x": 2}}, {{"x": 3}}])
        """
    )
    lines = done.stdout.split("\n")
    assert lines[0].startswith("interrupted after"), done.stdout + done.stderr
    assert float(lines[0].split()[-1]) < 2.5
    assert lines[1] == "True"


def test_ctrl_c_stops_a_story_and_the_story_goes_on():
    done = _python(
        """
        import os, signal, threading
        import epipen as ep
        s = ep.Story(backend="z3")
        a = s.character("A")
        x, y, z = s.ints("x y z")
        s.announce((x > 1) & (y > 1) & (z > 1) & (x * x * x + y * y * y == z * z * z))
        threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        try:
            s.worlds()
            print("no interrupt")
        except KeyboardInterrupt:
            print("interrupted")
        # The story (and its Z3) answers the next statements.
        s.announce(x < 0)
        w = s.worlds()
        print(w == [], w.complete)
        """
    )
    assert done.stdout.split("\n")[:2] == ["interrupted", "True True"], done.stdout + done.stderr


def test_a_story_s_timeout_is_each_statement_s():
    s = epipen.Story(backend="z3", timeout=1.0)
    x, y, z = s.ints("x y z")
    s.announce((x > 0) & (y > 0) & (z > 0))
    # Time between statements is not the story's: a second later it goes on.
    time.sleep(1.2)
    s.announce(x < 3)
    # A statement that runs out of time raises, and has no effect.
    start = time.monotonic()
    with pytest.raises(epipen.SolverError) as raised:
        s.check(~((x > 1) & (y > 1) & (z > 1) & (x * x * x + y * y * y == z * z * z)))
    assert raised.value.message == "solver failure: the solver ran out of time (timeout)"
    assert time.monotonic() - start < 3.0
    s.announce((x == 2) & (y == 1) & (z == 1))
    assert s.worlds() == [{"x": 2, "y": 1, "z": 1}]


def test_ctrl_c_stops_a_sweep():
    done = _python(
        f"""
        import os, signal, threading, time
        import epipen
        threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
        start = time.monotonic()
        try:
            epipen.sweep("const n = 1\\n" + {FERMAT!r}.replace("x > 1", "x > n"), sets={{"n": range(100)}}, progress=False)
            print("no interrupt")
        except KeyboardInterrupt:
            print("interrupted after", round(time.monotonic() - start, 1))
        """
    )
    first = done.stdout.split("\n")[0]
    assert first.startswith("interrupted after"), done.stdout + done.stderr
    assert float(first.split()[-1]) < 2.5


def test_a_long_solve_releases_the_gil():
    ticks = 0
    stop = threading.Event()

    def count():
        nonlocal ticks
        while not stop.is_set():
            ticks += 1
            time.sleep(0.001)

    # A daemon, stopped whatever the solve raised: a failing assertion must not leave
    # the counter keeping the interpreter alive (the suite would hang, not fail).
    counter = threading.Thread(target=count, daemon=True)
    counter.start()
    start = time.monotonic()
    try:
        with pytest.raises(epipen.SolverError, match="timeout"):
            epipen.run(FERMAT, timeout=1.0)
    finally:
        stop.set()
        counter.join()
    elapsed = time.monotonic() - start
    assert 0.9 < elapsed < 5
    # The other thread kept running while Z3 worked: with the GIL held for the second,
    # it would have ticked once or twice (20 leaves room for a loaded machine's sleeps).
    assert ticks > 20


def test_solves_from_several_threads_at_once():
    results = []

    def solve():
        results.append(epipen.run_file(ROOT / "stories" / "cheryl.story").worlds)

    threads = [threading.Thread(target=solve) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [[{"month": 7, "day": 16}]] * 8


def test_a_forked_child_solves_and_sweeps():
    # The worker threads, the sweep's pool and a Story's thread stay in the parent; the
    # child makes its own instead of waiting for them forever.
    done = _python(
        """
        import os, sys
        import epipen
        s = epipen.Story()
        x = s.int("x")
        s.announce((x > 0) & (x < 3))
        epipen.run_file("stories/cheryl.story")
        epipen.sweep_file("stories/cheryl-sample.story", samples=50, progress=False)
        pid = os.fork()
        if pid == 0:
            ok = epipen.run_file("stories/cheryl.story").worlds == [{"month": 7, "day": 16}]
            ok &= epipen.sweep_file("stories/cheryl-sample.story", samples=50, progress=False).counts[0] > 0
            try:
                s.worlds()
                ok = False
            except RuntimeError as e:
                ok &= "forked" in str(e)
            os._exit(0 if ok else 1)
        _, status = os.waitpid(pid, 0)
        print("child", os.waitstatus_to_exitcode(status))
        print(s.worlds() == [{"x": 1}, {"x": 2}])
        """,
        timeout=60,
    )
    assert done.stdout.split("\n")[:2] == ["child 0", "True"], done.stdout + done.stderr
