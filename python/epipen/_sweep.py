"""``epipen.sweep``: a story run for many values of its consts, or many seeds of its
``sample(…)``s, as ``epipen sweep`` runs it: in parallel, on this machine's cores or as
Ray tasks on a cluster. The runs go out in chunks (a chunk of samples comes back as its
distribution only), with a progress bar in notebooks and terminals."""

from __future__ import annotations

import html
import itertools
import math
import os
import sys
import time
from collections.abc import Mapping as _Mapping
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Literal, Mapping, Optional, Sequence, TypedDict, Union

from . import _native
from ._boundary import Count, SampleChunk, Value, ValuesRow
from ._options import backend_checked, timeout_checked
from ._results import World, _need

if TYPE_CHECKING:
    import pandas

__all__ = ["sweep", "sweep_file", "Sweep", "SweepGroup", "SweepRow", "MAX_RUNS"]

#: A sweep makes at most this many runs (as ``epipen sweep``).
MAX_RUNS = 1_000_000

#: Worlds are counted exactly up to this many; runs that leave more count under ">1000".
MANY = ">1000"


#: Values of a story's consts, by name, as the native module takes them.
_Combo = list[tuple[str, int]]


class FirstUnique(TypedDict):
    """The first sample of a :class:`SweepGroup` that left exactly one world."""

    seed: int
    world: World
    #: For each ``sample(…)`` it drew with: its line, the items (values, tuples of values,
    #: or an item's text when it names a constant).
    drew: list[tuple[int, list[Union[Value, tuple[Value, ...]]]]]


def _key_order(k: Count) -> tuple[int, int]:
    # The command line's order: ">1000" (more, or infinitely many) first, then by number.
    return (0, 0) if isinstance(k, str) else (1, k)


def _ranges(sets: Optional[Mapping[str, Union[int, Iterable[int]]]]) -> list[tuple[str, list[int]]]:
    out = []
    for name, given in (sets or {}).items():
        if isinstance(given, (bool, str, bytes)) or not isinstance(given, (int, Iterable)):
            raise TypeError(f"sets[{name!r}]: an int, or an iterable of ints (a list, a range), not {given!r}")
        values = [given] if isinstance(given, int) else list(given)
        for v in values:
            _check_int(name, v)
        if not values:
            raise ValueError(f"sets[{name!r}]: no values to sweep")
        out.append((name, values))
    return out


def _check_int(name: str, v: object) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeError(f"sets[{name!r}]: a const's value is an int, not {v!r}")
    if not -(2**63) <= v < 2**63:
        raise ValueError(f"sets[{name!r}]: {v} does not fit in 64 bits")
    return v


class SweepGroup:
    """The samples of one combination of values: ``counts`` (how many samples left 0, 1,
    2, … worlds; ``">1000"``: more, or infinitely many), ``failed``, ``first_unique`` (the
    first sample that left exactly one world: a dict with ``seed``, ``world`` and
    ``drew``: for each ``sample(…)`` it drew with, ``(line, items)``, the items as
    values, a tuple for a tuple (``(11, [(3, 25), (4, 17), …])``; ints, bools, enum
    values by name; an item that names a constant is its text), ``first_error`` ((seed,
    message, exit code) of the first failed sample)."""

    def __init__(self, sets: dict[str, int], first_seed: int, samples: int):
        self.sets = sets
        self.first_seed = first_seed
        self.samples = samples
        self.counts: dict[Count, int] = {}
        self.failed = 0
        self.first_unique: Optional[FirstUnique] = None
        self.first_error: Optional[tuple[int, str, int]] = None
        # What the first unique sample drew as the story writes it (for str()).
        self._drew_text: list[tuple[int, str]] = []

    @property
    def last_seed(self) -> int:
        return (self.first_seed + self.samples - 1) % 2**64

    def _add(self, chunk: SampleChunk) -> None:
        # Chunks arrive in seed order: the first unique (and failed) sample is the
        # first chunk's that has one.
        for k, n in chunk["counts"].items():
            self.counts[k] = self.counts.get(k, 0) + n
        self.counts = dict(sorted(self.counts.items(), key=lambda kv: _key_order(kv[0])))
        self.failed += chunk["failed"]
        if self.first_unique is None and chunk["first_unique"] is not None:
            u = chunk["first_unique"]
            drew = [(line, list(items)) for line, items in u["drew"]]
            self.first_unique = {"seed": u["seed"], "world": World(zip(u["names"], u["world"])), "drew": drew}
            self._drew_text = [(line, text) for line, text in u["drew_text"]]
        if self.first_error is None and chunk["first_error"] is not None:
            seed, message, code = chunk["first_error"]
            self.first_error = (seed, message, code)

    def share(self, worlds: Count) -> float:
        """The share of samples that left ``worlds`` worlds, in %."""
        return 100.0 * self.counts.get(worlds, 0) / self.samples

    def __str__(self) -> str:
        n = self.samples
        out = ""
        if self.sets:
            out += ", ".join(f"{k} = {v}" for k, v in self.sets.items()) + ":\n"
        out += f"{n} samples (seeds {self.first_seed} to {self.last_seed}):\n"
        out += "  worlds  samples   share\n"
        for k, runs in self.counts.items():
            out += f"  {str(k):>6}  {runs:>7}  {100.0 * runs / n:>5.1f}%\n"
        if self.failed:
            out += f"  failed  {self.failed:>7}  {100.0 * self.failed / n:>5.1f}%\n"
        u = self.first_unique
        if u is None:
            out += "no sample leaves exactly one world\n"
        else:
            # Named as Python names the argument (the command line says `--seed 3`).
            out += f"first sample with exactly one world: seed={u['seed']}\n"
            for line, items in self._drew_text:
                out += f"  line {line}: drew {items}\n"
            if u["world"] is not None:
                out += f"  the world: {u['world']}\n"
        return out

    def __repr__(self) -> str:
        return f"<epipen.SweepGroup {self.sets or ''} {self.samples} samples: {self.counts}>"


class SweepRow:
    """One run of a sweep over values: ``sets``, ``worlds`` (how many it left: an int,
    ``"infinite"`` or ``">1000"``; None when it failed), ``world`` (when exactly one),
    ``error`` (its message, when it failed), ``code`` (the exit code of the failure), and
    ``ms`` (its time)."""

    __slots__ = ("sets", "worlds", "world", "error", "code", "ms")

    def __init__(self, sets: dict[str, int], raw: ValuesRow):
        self.sets = sets
        self.worlds: Optional[Count] = raw["worlds"]
        self.world: Optional[World] = None
        if raw["world"] is not None:
            self.world = World(zip(raw["names"] or [], raw["world"]))
        self.error: Optional[str] = None
        self.code: Optional[int] = None
        if raw["error"] is not None:
            self.error, self.code = raw["error"]
        self.ms: float = raw["ms"]

    def __repr__(self) -> str:
        return f"SweepRow(sets={self.sets}, worlds={self.worlds!r}, world={self.world!r}, error={self.error!r})"


def _count_text(c: Optional[Count]) -> str:
    if c == "infinite":
        return "infinitely many worlds"
    if isinstance(c, str):
        return "more than one world" if c == ">1" else f"more than {c[1:]} worlds"
    return "1 world" if c == 1 else f"{c} worlds"


class Sweep(_Mapping[Count, int]):
    """What :func:`sweep` found: a read-only mapping of its ``counts`` (worlds left →
    runs: ``dict(s)``, ``s[1]``, ``s.values()``; ``">1000"`` for more, or infinitely
    many; failed runs are not in it), so that two sweeps are equal when their
    distributions are, whether they ran here or on Ray.

    With ``samples``: ``groups``, a :class:`SweepGroup` per combination of values, and
    ``counts``, the distribution over all of them. Without: ``rows``, a
    :class:`SweepRow` per combination, and ``counts`` of the rows by worlds left.
    ``failed`` counts the runs that failed (a run's failure does not stop the sweep: see
    the row's or group's error). ``str()`` is what ``epipen sweep`` prints (for samples,
    exactly); in Jupyter it is a table."""

    def __init__(self, names: list[str], samples: Optional[int]):
        self.names = names
        self.samples = samples
        self.groups: list[SweepGroup] = []
        self.rows: list[SweepRow] = []
        self.seconds = 0.0

    @property
    def counts(self) -> dict[Count, int]:
        total: dict[Count, int] = {}
        if self.samples is not None:
            for g in self.groups:
                for k, n in g.counts.items():
                    total[k] = total.get(k, 0) + n
        else:
            for r in self.rows:
                if r.error is None:
                    key = r.worlds if isinstance(r.worlds, int) and r.worlds <= 1000 else (
                        r.worlds if r.worlds == MANY else MANY
                    )
                    total[key] = total.get(key, 0) + 1
        return dict(sorted(total.items(), key=lambda kv: _key_order(kv[0])))

    @property
    def failed(self) -> int:
        if self.samples is not None:
            return sum(g.failed for g in self.groups)
        return sum(1 for r in self.rows if r.error is not None)

    @property
    def runs(self) -> int:
        return sum(g.samples for g in self.groups) if self.samples is not None else len(self.rows)

    @property
    def first_unique(self) -> Optional[FirstUnique]:
        """The first sample (of the first group that has one) leaving exactly one world."""
        return next((g.first_unique for g in self.groups if g.first_unique), None)

    def __getitem__(self, worlds: Count) -> int:
        return self.counts[worlds]

    def __iter__(self) -> Iterator[Count]:
        return iter(self.counts)

    def __len__(self) -> int:
        return len(self.counts)

    def __str__(self) -> str:
        if self.samples is not None:
            return "".join(str(g) for g in self.groups)
        header = self.names + ["worlds", "time", "the world, when one"]
        table = [header]
        for r in self.rows:
            row = [str(r.sets[n]) for n in self.names]
            if r.error is None:
                row += [_count_text(r.worlds), f"{r.ms:.1f} ms", str(r.world) if r.world is not None else ""]
            else:
                row += ["error", f"{r.ms:.1f} ms", r.error]
            table.append(row)
        widths = [max(len(row[c]) for row in table) for c in range(len(header))]
        lines = []
        for row in table:
            cells = []
            for c, cell in enumerate(row):
                if c + 1 == len(header):
                    cells.append(cell)
                elif c + 2 == len(header):
                    cells.append(cell.rjust(widths[c]))
                else:
                    cells.append(cell.ljust(widths[c]))
            lines.append("  ".join(cells).rstrip())
        return "\n".join(lines) + "\n"

    def __repr__(self) -> str:
        return f"<epipen.Sweep {self.runs} runs: {self.counts}{f', {self.failed} failed' if self.failed else ''}>"

    def _repr_html_(self) -> str:
        if self.samples is not None:
            parts = []
            for g in self.groups:
                title = ", ".join(f"{k} = {v}" for k, v in g.sets.items())
                rows = "".join(
                    f"<tr><td>{html.escape(str(k))}</td><td>{n}</td><td>{100.0 * n / g.samples:.1f}%</td></tr>"
                    for k, n in g.counts.items()
                )
                if g.failed:
                    rows += f"<tr><td>failed</td><td>{g.failed}</td><td>{100.0 * g.failed / g.samples:.1f}%</td></tr>"
                u = g.first_unique
                first = (
                    f"<p>first sample with exactly one world: seed {u['seed']}: {html.escape(str(u['world']))}</p>"
                    if u
                    else "<p>no sample leaves exactly one world</p>"
                )
                parts.append(
                    (f"<p><b>{html.escape(title)}</b></p>" if title else "")
                    + f"<p>{g.samples} samples (seeds {g.first_seed} to {g.last_seed})</p>"
                    + "<table><thead><tr><th>worlds</th><th>samples</th><th>share</th></tr></thead><tbody>"
                    + rows
                    + "</tbody></table>"
                    + first
                )
            return "".join(parts)
        head = "".join(f"<th>{html.escape(h)}</th>" for h in self.names + ["worlds", "time", "the world, when one"])
        body = ""
        for r in self.rows:
            cells = [str(r.sets[n]) for n in self.names]
            if r.error is None:
                cells += [_count_text(r.worlds), f"{r.ms:.1f} ms", str(r.world) if r.world is not None else ""]
            else:
                cells += ["error", f"{r.ms:.1f} ms", r.error]
            body += "<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>"
        return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"

    def to_pandas(self) -> pandas.DataFrame:
        """A DataFrame: with samples, a row per (combination, worlds left) with its
        count of samples; without, a row per run."""
        pd = _need("pandas", "to_pandas()")
        if self.samples is not None:
            return pd.DataFrame(
                [{**g.sets, "worlds": k, "samples": n, "share": 100.0 * n / g.samples} for g in self.groups for k, n in g.counts.items()]
            )
        return pd.DataFrame(
            [{**r.sets, "worlds": r.worlds, "world": None if r.world is None else str(r.world), "error": r.error, "ms": r.ms} for r in self.rows]
        )


class _Progress:
    """A progress bar: a live HTML display in a notebook, a line on stderr in a
    terminal, shown once the sweep has run half a second (as ``epipen sweep``'s)."""

    def __init__(self, total: int, mode: Optional[bool]):
        self.total, self.start = total, time.monotonic()
        # The notebook's display (IPython's DisplayHandle), once shown.
        self.handle: Any = None
        self.mode: Optional[Literal["notebook", "terminal"]] = None
        if mode is False:
            return
        if _in_notebook():
            self.mode = "notebook"
        elif mode is True or sys.stderr.isatty():
            self.mode = "terminal"
        self.always = mode is True

    def _text(self, done: int) -> str:
        return f"sweep: {done}/{self.total} runs ({time.monotonic() - self.start:.1f} s)"

    def update(self, done: int) -> None:
        if self.mode is None or (not self.always and time.monotonic() - self.start < 0.5):
            return
        if self.mode == "notebook":
            from IPython.display import HTML, display

            bar = HTML(f'<progress value="{done}" max="{self.total}" style="width: 24em"></progress> {html.escape(self._text(done))}')
            if self.handle is None:
                self.handle = display(bar, display_id=True)
            else:
                self.handle.update(bar)
        else:
            width = 30
            filled = width * done // max(self.total, 1)
            sys.stderr.write(f"\r\x1b[2K[{'#' * filled}{'.' * (width - filled)}] {self._text(done)}")
            sys.stderr.flush()

    def close(self, done: int) -> None:
        if self.mode == "terminal" and (self.always or time.monotonic() - self.start >= 0.5):
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()
        elif self.mode == "notebook" and self.handle is not None:
            self.update(done)


def _in_notebook() -> bool:
    shell = sys.modules.get("IPython")
    if shell is None:
        return False
    try:
        ip = shell.get_ipython()
    except Exception:
        return False
    return ip is not None and type(ip).__name__ == "ZMQInteractiveShell"


def _chunks(total: int, size: int) -> Iterator[tuple[int, int]]:
    start = 0
    while start < total:
        yield start, min(size, total - start)
        start += size


def _ray_samples(
    name: str,
    source: str,
    sets: _Combo,
    first_seed: int,
    count: int,
    backend: str,
    timeout: Optional[float],
) -> SampleChunk:
    """A chunk of samples, as one Ray task (one core)."""
    return _native.sweep_samples(name, source, sets, first_seed, count, backend, timeout, 1)


def _ray_values(
    name: str, source: str, combos: list[_Combo], seed: int, backend: str, timeout: Optional[float]
) -> list[ValuesRow]:
    """A chunk of combinations of values, as one Ray task."""
    return _native.sweep_values(name, source, combos, seed, backend, timeout, 1)


class _Ray:
    """Chunks run as Ray tasks: on the cluster at ``RAY_ADDRESS``, or one Ray started on
    this machine (``ray.init()``)."""

    def __init__(self) -> None:
        try:
            import ray
        except ImportError:
            raise ImportError('cluster="ray" needs Ray, which is not installed: pip install "./python[ray]" (from the checkout)') from None
        # Ray's module and its remote functions (typed as Any: Ray is optional).
        self.ray: Any = ray
        if not ray.is_initialized():
            ray.init()
        self.cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.samples: Any = ray.remote(num_cpus=1)(_ray_samples)
        self.values: Any = ray.remote(num_cpus=1)(_ray_values)

    def chunk_size(self, total: int) -> int:
        # Four chunks per core at least, so that cores finishing early take more; at
        # most 50 000 samples (about a second of one core on Cheryl's dates).
        return max(1, min(50_000, math.ceil(total / (4 * self.cpus))))

    def run(self, calls: Sequence[tuple[Any, tuple[object, ...]]], progress: _Progress, sizes: list[int]) -> list[Any]:
        """Each remote function called with its arguments, as Ray tasks: their results,
        in order."""
        ray = self.ray
        refs = [remote.remote(*args) for remote, args in calls]
        index = {ref: k for k, ref in enumerate(refs)}
        results: list[Any] = [None] * len(refs)
        pending, done = list(refs), 0
        try:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1, timeout=0.5)
                for ref in ready:
                    k = index[ref]
                    results[k] = ray.get(ref)
                    done += sizes[k]
                progress.update(done)
        except KeyboardInterrupt:
            for ref in pending:
                ray.cancel(ref)
            raise
        return results


def sweep(
    source: str,
    *,
    samples: Optional[int] = None,
    sets: Optional[Mapping[str, Union[int, Iterable[int]]]] = None,
    seed: int = 0,
    cluster: Optional[str] = None,
    backend: str = "auto",
    timeout: Optional[float] = None,
    threads: Optional[int] = None,
    progress: Optional[bool] = None,
    name: str = "<story>",
) -> Sweep:
    """Runs the story ``source`` for many values or seeds, as ``epipen sweep``.

    - ``sets``: values of the story's consts, each an int or an iterable of ints
      (``{"n": range(1, 11)}``, ``{"n": [2, 4, 8]}``); every combination runs, the first
      name varying slowest.
    - ``samples``: run seeds ``seed`` … ``seed + samples - 1`` of the story's
      ``sample(k, {…})`` draws (Norvig's ``counter``) for each combination; without, one
      run per combination, with ``seed``.
    - ``cluster="ray"``: run the chunks as Ray tasks (``pip install "./python[ray]"``) on
      the cluster at ``RAY_ADDRESS``, or on a Ray started on this machine; the same
      answer as on this machine's threads (``threads``: how many; None: one per core).
    - ``timeout``: seconds for each run; ``backend`` as for :func:`run`.
    - ``progress``: None shows a progress bar in a notebook or a terminal after half a
      second, False never, True always (on stderr outside notebooks).

    The story's syntax, the names of ``sets`` and errors it makes whatever the values
    raise a StoryError before anything runs; a run that fails counts as failed.
    """
    ranges = _ranges(sets)
    names = [n for n, _ in ranges]
    seeds = 1 if samples is None else samples
    if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1:
        raise ValueError(f"samples={samples!r}: a number of samples, 1 or more")
    seed = _check_seed(seed)
    backend_checked(backend)
    timeout_checked(timeout)
    runs = seeds * math.prod(len(v) for _, v in ranges)
    if runs > MAX_RUNS:
        sizes = [f"{len(v)} values of {n}" for n, v in ranges] + ([f"{samples} samples"] if samples is not None else [])
        raise ValueError(
            f"the sweep would make {runs} runs ({' × '.join(sizes)}), more than the {MAX_RUNS} it makes at most; "
            "sweep fewer values at a time"
        )
    combos = [list(zip(names, values)) for values in itertools.product(*(v for _, v in ranges))]
    _native.sweep_check(name, source, names, combos[0], seed, seed, samples)
    if cluster not in (None, "ray"):
        raise ValueError(f'cluster={cluster!r}: None (this machine) or "ray"')
    ray = _Ray() if cluster == "ray" else None
    result = Sweep(names, samples)
    bar = _Progress(runs, progress)
    start = time.monotonic()
    done = 0
    if samples is not None:
        size = ray.chunk_size(runs) if ray else max(1000, min(100_000, samples // 50))
        pieces = list(_chunks(samples, size))
        groups = [SweepGroup(dict(combo), seed, samples) for combo in combos]
        chunks: list[SampleChunk]
        if ray:
            # Every chunk of every combination in flight at once.
            calls = [
                (ray.samples, (name, source, combo, (seed + first) % 2**64, count, backend, timeout))
                for combo in combos
                for first, count in pieces
            ]
            chunks = ray.run(calls, bar, [count for _ in combos for _, count in pieces])
        else:
            chunks = []
            for combo in combos:
                for first, count in pieces:
                    chunks.append(
                        _native.sweep_samples(name, source, combo, (seed + first) % 2**64, count, backend, timeout, threads)
                    )
                    done += count
                    bar.update(done)
        # Chunks in seed order within each combination: the first unique (and failed)
        # sample is the first chunk's that has one.
        for k, chunk in enumerate(chunks):
            groups[k // len(pieces)]._add(chunk)
        result.groups = groups
        done = runs
    else:
        size = ray.chunk_size(runs) if ray else max(16, len(combos) // 50)
        pieces = list(_chunks(len(combos), size))
        rows: list[list[ValuesRow]]
        if ray:
            values = [(ray.values, (name, source, combos[first : first + count], seed, backend, timeout)) for first, count in pieces]
            rows = ray.run(values, bar, [count for _, count in pieces])
        else:
            rows = []
            for first, count in pieces:
                rows.append(_native.sweep_values(name, source, combos[first : first + count], seed, backend, timeout, threads))
                bar.update(first + count)
        k = 0
        for row_chunk in rows:
            for raw in row_chunk:
                combo = combos[k]
                k += 1
                result.rows.append(SweepRow(dict(combo), raw))
        done = runs
    bar.close(done)
    result.seconds = time.monotonic() - start
    return result


def _check_seed(seed: object) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
        raise ValueError(f"seed={seed!r}: a seed is an int from 0 to 2**64 - 1")
    return seed


def sweep_file(
    path: Union[str, os.PathLike[str]],
    *,
    samples: Optional[int] = None,
    sets: Optional[Mapping[str, Union[int, Iterable[int]]]] = None,
    seed: int = 0,
    cluster: Optional[str] = None,
    backend: str = "auto",
    timeout: Optional[float] = None,
    threads: Optional[int] = None,
    progress: Optional[bool] = None,
) -> Sweep:
    """:func:`sweep` on the story in the file ``path`` (messages name it by its path)."""
    with open(path, encoding="utf-8") as f:
        source = f.read()
    return sweep(
        source,
        samples=samples,
        sets=sets,
        seed=seed,
        cluster=cluster,
        backend=backend,
        timeout=timeout,
        threads=threads,
        progress=progress,
        name=str(path),
    )
