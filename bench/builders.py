#!/usr/bin/env python3
"""The size of the three story builders (issue 43's target: at most half of 6 278
lines): the Rust `Story` API (`crates/epipen/src/story/`), the PyO3 builder
(`crates/epipen-python/src/builder.rs` and `builder/`) and the Python builder
(`python/epipen/_story.py`, `_expr.py`, `_events.py`, `_actions.py`). Prints, per file
and per builder, its lines and its code lines (without blank lines, comments and
docstrings).

    python3 bench/builders.py
"""

import io
import tokenize
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILDERS = {
    "Rust story/": sorted((ROOT / "crates/epipen/src/story").glob("*.rs")),
    "PyO3 builder": [ROOT / "crates/epipen-python/src/builder.rs"]
    + sorted((ROOT / "crates/epipen-python/src/builder").glob("*.rs")),
    "Python builder": [ROOT / "python/epipen" / f for f in ("_story.py", "_expr.py", "_events.py", "_actions.py")],
}


def code_lines(path: Path) -> int:
    text = path.read_text()
    lines = text.splitlines()
    if path.suffix == ".rs":
        return sum(1 for line in lines if line.strip() and not line.strip().startswith("//"))
    docs: set[int] = set()
    previous = None
    for tok in tokenize.generate_tokens(io.StringIO(text).readline):
        at_start = previous is None or previous.type in (tokenize.INDENT, tokenize.DEDENT, tokenize.NEWLINE, tokenize.NL)
        if tok.type == tokenize.STRING and at_start:
            docs.update(range(tok.start[0], tok.end[0] + 1))
        if tok.type != tokenize.COMMENT:
            previous = tok
    return sum(
        1 for k, line in enumerate(lines, 1) if line.strip() and not line.strip().startswith("#") and k not in docs
    )


def main() -> None:
    total = [0, 0]
    print(f"{'lines':>6} {'code':>6}  file")
    for builder, files in BUILDERS.items():
        sums = [0, 0]
        for f in files:
            n, c = len(f.read_text().splitlines()), code_lines(f)
            sums[0] += n
            sums[1] += c
            print(f"{n:>6} {c:>6}  {f.relative_to(ROOT)}")
        print(f"{sums[0]:>6} {sums[1]:>6}  = {builder}\n")
        total = [total[0] + sums[0], total[1] + sums[1]]
    print(f"{total[0]:>6} {total[1]:>6}  = the three builders (target: at most 3 139 lines)")


if __name__ == "__main__":
    main()
