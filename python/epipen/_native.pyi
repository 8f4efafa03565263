"""The native module of the epipen package (crates/epipen-python): a thin layer over
the epipen library. The package's Python modules wrap it; these are its types (what
crosses the boundary is typed in ``epipen._boundary``).

``run``, ``trace``, ``model``, ``smcdel`` and ``mastar_plan`` answer with the views of
epipen's kit (worlds, reports, trace steps, the model) as dicts and lists, each with its
``text`` as the ``epipen`` command prints it, in the shapes of ``epipen._results``
(``RawRun``, ``RawTrace``, ``RawModel``) and ``epipen`` (``RawSmcdel``,
``RawFilePlan``), which the package's classes wrap. A failure raises ``StoryError``, ``SolverError`` or
``RefutedError`` (from ``epipen._errors``) carrying its line, column, message and hint."""

import builtins
from typing import Iterable, Optional, Sequence, Union

from . import RawFilePlan, RawSmcdel
from ._boundary import (
    BlockItem,
    CaseLine,
    CaseName,
    Change,
    ExpectsLine,
    HintVerdict,
    Planned,
    Reported,
    SampleChunk,
    SeesLine,
    ShownReply,
    Term,
    Tree,
    ValuesRow,
    WorldsReply,
)
from ._results import RawModel, RawRun, RawTrace

__version__: str

#: Values of a story's consts, by name (``--set n=8``).
Sets = Sequence[tuple[str, int]]

def z3_version() -> str: ...
def cli_main(argv: list[str]) -> int: ...
def run(
    name: str, source: str, sets: Sets, seed: int, backend: str, timeout: Optional[float], limit: int
) -> RawRun: ...
def trace(
    name: str, source: str, sets: Sets, seed: int, backend: str, timeout: Optional[float], limit: int
) -> RawTrace: ...
def model(
    name: str, source: str, sets: Sets, seed: int, backend: str, timeout: Optional[float], at: Optional[str]
) -> RawModel: ...
def smcdel(name: str, source: str, backend: str, timeout: Optional[float]) -> RawSmcdel: ...
def mastar_plan(name: str, source: str, max: int, backend: str, timeout: Optional[float]) -> RawFilePlan: ...
def sweep_check(
    name: str,
    source: str,
    names: list[str],
    first_sets: Sets,
    first_seed: int,
    seed: int,
    samples: Optional[int],
) -> None: ...
def sweep_samples(
    name: str,
    source: str,
    sets: Sets,
    first_seed: int,
    count: int,
    backend: str,
    timeout: Optional[float],
    threads: Optional[int],
) -> SampleChunk: ...
def sweep_values(
    name: str,
    source: str,
    combos: Sequence[Sets],
    seed: int,
    backend: str,
    timeout: Optional[float],
    threads: Optional[int],
) -> list[ValuesRow]: ...

class NativeStory:
    """The Rust API's story, run on a thread of its own (``epipen.Story`` wraps it).
    Declarations answer their index (characters, constants, enums, actions: each kind
    counted apart), which expressions name them by."""

    def __new__(cls, backend: str, timeout: Optional[float], trust_hints: bool) -> "NativeStory": ...
    def character(self, name: str) -> builtins.int: ...
    def int(self, name: str) -> builtins.int: ...
    def bool(self, name: str) -> builtins.int: ...
    def enumeration(self, name: str, variants: Sequence[str]) -> builtins.int: ...
    def enum_constant(self, ty: builtins.int, name: str) -> builtins.int: ...
    def checkpoint(self, name: str) -> None: ...
    def announce(self, formula: Tree) -> None: ...
    def says(self, who: builtins.int, formula: Tree) -> None: ...
    def learns(self, who: builtins.int, values: Iterable[Tree]) -> None: ...
    def actual(self, formula: Tree) -> None: ...
    def reveals(self, who: builtins.int, formula: Tree) -> builtins.bool: ...
    def check(self, formula: Tree) -> None: ...
    def expects(self, who: builtins.int, formula: Tree) -> None: ...
    def assign(self, constant: builtins.int, value: Tree) -> None: ...
    def assign_all(self, changes: Iterable[Change]) -> None: ...
    def check_actual(self, formula: Tree) -> None: ...
    def event(
        self,
        name: str,
        cases: Iterable[CaseLine],
        sees: Iterable[SeesLine],
        expects: Iterable[ExpectsLine],
        actual: Iterable[CaseName],
    ) -> Reported: ...
    def simultaneously(self, block: Iterable[BlockItem]) -> list[builtins.bool]: ...
    def assert_adds_ck(self, hint: Tree, block: Iterable[BlockItem]) -> HintVerdict: ...
    def prior(self, weight: Tree) -> None: ...
    def show(self, value: Union[Tree, Term]) -> ShownReply: ...
    def worlds(self, limit: builtins.int) -> WorldsReply: ...
    def action(
        self,
        name: str,
        by: Optional[builtins.int],
        when: Optional[Tree],
        cases: Iterable[CaseLine],
        sees: Iterable[SeesLine],
        expects: Iterable[ExpectsLine],
    ) -> builtins.int: ...
    def do_actions(self, steps: Sequence[tuple[builtins.int, Optional[str]]]) -> list[Reported]: ...
    def plan(
        self, goal: Tree, max: builtins.int, keeping: Optional[Tree], coordinated: builtins.bool, all: builtins.bool
    ) -> Planned: ...
    def close(self) -> None: ...
