//! Provisions the Z3 library that epipen links against (see docs/z3.md).
//!
//! z3-sys links `-lz3` and leaves finding the library to us. In order:
//! 1. `EPIPEN_Z3_DIR`: a directory holding `libz3.so` (directly or in `lib/`);
//! 2. the system Z3, when pkg-config reports a version >= 4.13.3;
//! 3. otherwise the pinned release, taken from PyPI's `z3-solver` wheel with pip,
//!    verified against its SHA-256 and unpacked into a cache outside `target/`
//!    (`EPIPEN_Z3_CACHE`, else `$XDG_CACHE_HOME/epipen`, else `~/.cache/epipen`),
//!    so a clean build does not download again.
//!
//! The pinned library is linked by its absolute path, so every binary that links epipen
//! (its own, `cargo install`'s, and those of crates that depend on it) finds it without
//! `LD_LIBRARY_PATH` or an rpath: the cached copy has no SONAME, and `-lz3` finds a
//! linker script naming that copy, so the linker records its path (see docs/z3.md).

use std::env;
use std::fs;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::{Command, exit};

const WHEEL_VERSION: &str = "5.4.0.0";
const WHEEL_FILE: &str = "z3_solver-5.4.0.0-py3-none-manylinux_2_27_x86_64.whl";
const WHEEL_SHA256: &str = "0549ffad554178a59480ba41b5279cfbb27053ed5a2da269ae1a48214d5db34b";
const MIN_SYSTEM_VERSION: (u32, u32, u32) = (4, 13, 3);

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    for var in [
        "EPIPEN_Z3_DIR",
        "EPIPEN_Z3_CACHE",
        "XDG_CACHE_HOME",
        "HOME",
        "PYTHON",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }

    if let Some(dir) = env::var_os("EPIPEN_Z3_DIR") {
        let dir = PathBuf::from(dir);
        let lib = [dir.join("lib"), dir.clone()]
            .into_iter()
            .find(|d| d.join("libz3.so").exists())
            .unwrap_or_else(|| {
                fail(&format!(
                    "EPIPEN_Z3_DIR={} holds no libz3.so (looked in it and in its lib/)",
                    dir.display()
                ))
            });
        link_dir(&lib, "EPIPEN_Z3_DIR");
        // That library keeps its SONAME: epipen's own binaries find it through their rpath,
        // other crates' binaries through the loader's usual search.
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", lib.display());
        return;
    }

    if system_version().is_some_and(|v| v >= MIN_SYSTEM_VERSION) {
        println!("cargo:rustc-env=EPIPEN_Z3_SOURCE=system");
        return;
    }

    let lib = provision_wheel();
    let path = lib.join("libz3.so");
    strip_soname(&path);
    link_by_path(&path, "pinned z3-solver wheel");
}

/// Links `libz3`, a library without a SONAME, by its absolute path: `-lz3` (from z3-sys)
/// finds a GNU ld linker script `INPUT("…/libz3.so")`, and for a library without a
/// SONAME the linker records the path it was given in the binary's `DT_NEEDED`. The
/// search path reaches every crate linking epipen, where an rpath (`rustc-link-arg`)
/// would reach only epipen's own binaries.
fn link_by_path(lib: &Path, source: &str) {
    let out = link_search_dir();
    let quoted = lib.display().to_string();
    if quoted.contains('"') {
        fail(&format!(
            "the path {quoted} holds a `\"`, which a linker script cannot name"
        ));
    }
    fs::write(out.join("libz3.so"), format!("INPUT(\"{quoted}\")\n"))
        .unwrap_or_else(|e| fail(&format!("cannot write the linker script: {e}")));
    println!("cargo:rustc-env=EPIPEN_Z3_SOURCE={source}");
}

/// A fresh `OUT_DIR/z3lib`, put first on the link search path.
fn link_search_dir() -> PathBuf {
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("z3lib");
    let _ = fs::remove_dir_all(&out);
    fs::create_dir_all(&out)
        .unwrap_or_else(|e| fail(&format!("cannot create {}: {e}", out.display())));
    println!("cargo:rustc-link-search=native={}", out.display());
    out
}

/// Links the `libz3.so` in `lib` ahead of any system copy (symlinks to it and its SONAME
/// in the search directory). Cargo puts link-search directories that lie inside target/
/// on the library path of `cargo test` and `cargo run`, which covers doctests.
fn link_dir(lib: &Path, source: &str) {
    let out = link_search_dir();
    for entry in
        fs::read_dir(lib).unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", lib.display())))
    {
        let entry = entry.unwrap_or_else(|e| fail(&format!("cannot read {}: {e}", lib.display())));
        let name = entry.file_name();
        if name.to_string_lossy().starts_with("libz3.so") {
            symlink(entry.path(), out.join(&name))
                .unwrap_or_else(|e| fail(&format!("cannot link {}: {e}", entry.path().display())));
        }
    }
    println!("cargo:rustc-env=EPIPEN_Z3_SOURCE={source}");
}

/// Removes the `DT_SONAME` entry from the dynamic section of the ELF64 little-endian
/// shared library at `path` (in place, through a copy renamed over it, so a process
/// using the library keeps the old file), shifting the later entries up; a library
/// already without one is left alone.
fn strip_soname(path: &Path) {
    const PT_DYNAMIC: u32 = 2;
    const DT_NULL: u64 = 0;
    const DT_SONAME: u64 = 14;
    let bad = |why: &str| -> ! { fail(&format!("{}: {why}", path.display())) };
    let mut bytes = fs::read(path).unwrap_or_else(|e| bad(&format!("cannot read it: {e}")));
    if bytes.len() < 64 || &bytes[..6] != b"\x7fELF\x02\x01" {
        bad("not a 64-bit little-endian ELF file");
    }
    let u16_at = |b: &[u8], at: usize| u16::from_le_bytes([b[at], b[at + 1]]) as usize;
    let u64_at = |b: &[u8], at: usize| {
        b.get(at..at + 8)
            .map(|s| u64::from_le_bytes(s.try_into().expect("8 bytes")))
            .unwrap_or_else(|| bad("truncated"))
    };
    let (phoff, phentsize, phnum) = (
        u64_at(&bytes, 0x20) as usize,
        u16_at(&bytes, 0x36),
        u16_at(&bytes, 0x38),
    );
    let dynamic = (0..phnum)
        .map(|i| phoff + i * phentsize)
        .find(|&ph| {
            bytes
                .get(ph..ph + 4)
                .map(|t| u32::from_le_bytes(t.try_into().expect("4 bytes")))
                == Some(PT_DYNAMIC)
        })
        .unwrap_or_else(|| bad("no dynamic section"));
    let (offset, size) = (
        u64_at(&bytes, dynamic + 8) as usize,
        u64_at(&bytes, dynamic + 32) as usize,
    );
    let entries: Vec<(u64, u64)> = (0..size / 16)
        .map(|k| {
            (
                u64_at(&bytes, offset + 16 * k),
                u64_at(&bytes, offset + 16 * k + 8),
            )
        })
        .take_while(|&(tag, _)| tag != DT_NULL)
        .collect();
    if !entries.iter().any(|&(tag, _)| tag == DT_SONAME) {
        return;
    }
    let kept = entries.iter().filter(|&&(tag, _)| tag != DT_SONAME);
    let padded = kept.chain(std::iter::repeat(&(DT_NULL, 0))).take(size / 16);
    for (k, (tag, value)) in padded.enumerate() {
        bytes[offset + 16 * k..offset + 16 * k + 8].copy_from_slice(&tag.to_le_bytes());
        bytes[offset + 16 * k + 8..offset + 16 * k + 16].copy_from_slice(&value.to_le_bytes());
    }
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    fs::write(&tmp, &bytes)
        .unwrap_or_else(|e| bad(&format!("cannot write {}: {e}", tmp.display())));
    fs::rename(&tmp, path).unwrap_or_else(|e| bad(&format!("cannot replace it: {e}")));
}

/// The system Z3's version as pkg-config reports it.
fn system_version() -> Option<(u32, u32, u32)> {
    let out = Command::new("pkg-config")
        .args(["--modversion", "z3"])
        .output()
        .ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let mut parts = text.trim().split('.').map(|p| p.parse::<u32>().ok());
    Some((
        parts.next()??,
        parts.next()??,
        parts.next().flatten().unwrap_or(0),
    ))
}

fn cache_root() -> PathBuf {
    if let Some(dir) = env::var_os("EPIPEN_Z3_CACHE") {
        return PathBuf::from(dir);
    }
    if let Some(dir) = env::var_os("XDG_CACHE_HOME") {
        return PathBuf::from(dir).join("epipen");
    }
    match env::var_os("HOME") {
        Some(home) => PathBuf::from(home).join(".cache").join("epipen"),
        None => fail("cannot place the Z3 cache: set EPIPEN_Z3_CACHE or HOME"),
    }
}

/// Returns the `lib` directory of the pinned Z3, downloading it once if needed.
fn provision_wheel() -> PathBuf {
    let root = cache_root();
    let dest = root.join(format!("z3-{WHEEL_VERSION}"));
    let lib = dest.join("lib");
    if dest.join("sha256").exists() && lib.join("libz3.so").exists() {
        return lib;
    }
    eprintln!(
        "provisioning Z3 {WHEEL_VERSION} (z3-solver wheel from PyPI) into {}",
        dest.display()
    );
    fs::create_dir_all(&root).unwrap_or_else(|e| {
        fail(&format!(
            "cannot create the Z3 cache {}: {e}",
            root.display()
        ))
    });
    // Work in a private directory and rename it into place, so concurrent builds never
    // see a half-unpacked library.
    let tmp = root.join(format!(".tmp-{}-{}", WHEEL_VERSION, std::process::id()));
    let _ = fs::remove_dir_all(&tmp);
    fs::create_dir_all(&tmp)
        .unwrap_or_else(|e| fail(&format!("cannot create {}: {e}", tmp.display())));

    let python = env::var("PYTHON").unwrap_or_else(|_| "python3".into());
    let status = Command::new(&python)
        .args([
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--disable-pip-version-check",
            "--quiet",
            "-d",
        ])
        .arg(&tmp)
        .arg(format!("z3-solver=={WHEEL_VERSION}"))
        .status();
    match status {
        Ok(s) if s.success() => {}
        Ok(s) => fail(&format!(
            "`{python} -m pip download z3-solver=={WHEEL_VERSION}` failed ({s})"
        )),
        Err(e) => fail(&format!("cannot run `{python} -m pip`: {e}")),
    }

    // Verify the checksum and unpack the library and headers (zip and sha256 from Python's
    // standard library, which pip needs anyway).
    let script = r#"
import hashlib, os, shutil, sys, zipfile
wheel, want, out = sys.argv[1], sys.argv[2], sys.argv[3]
got = hashlib.sha256(open(wheel, 'rb').read()).hexdigest()
if got != want:
    sys.exit('checksum mismatch for %s: got %s, want %s' % (wheel, got, want))
with zipfile.ZipFile(wheel) as z:
    for name in z.namelist():
        for prefix, sub in (('z3/lib/', 'lib'), ('z3/include/', 'include')):
            if name.startswith(prefix) and not name.endswith('/'):
                target = os.path.join(out, sub, name[len(prefix):])
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with z.open(name) as src, open(target, 'wb') as dst:
                    shutil.copyfileobj(src, dst)
open(os.path.join(out, 'sha256'), 'w').write(got + '\n')
"#;
    let unpacked = tmp.join("z3");
    let status = Command::new(&python)
        .arg("-c")
        .arg(script)
        .arg(tmp.join(WHEEL_FILE))
        .arg(WHEEL_SHA256)
        .arg(&unpacked)
        .status();
    if !matches!(status, Ok(s) if s.success()) {
        let _ = fs::remove_dir_all(&tmp);
        fail(&format!("could not verify and unpack {WHEEL_FILE}"));
    }
    let unpacked_lib = unpacked.join("lib");
    if !unpacked_lib.join("libz3.so").exists() {
        fail(&format!("{WHEEL_FILE} holds no z3/lib/libz3.so"));
    }
    strip_soname(&unpacked_lib.join("libz3.so"));
    let megabytes = fs::metadata(tmp.join(WHEEL_FILE)).map_or(0.0, |m| m.len() as f64 / 1e6);
    if fs::rename(&unpacked, &dest).is_err() && !dest.join("sha256").exists() {
        fail(&format!(
            "cannot move the unpacked Z3 into {}",
            dest.display()
        ));
    }
    let _ = fs::remove_dir_all(&tmp);
    // Cargo shows a build script's output only as warnings, and replays them on every
    // build while the script's results stand: naming the removed temporary directory as
    // an input makes the next build run the script again, and it says nothing then.
    println!(
        "cargo:warning=downloaded Z3 {WHEEL_VERSION} (the z3-solver wheel from PyPI, \
         {megabytes:.1} MB, SHA-256 checked) into {}",
        dest.display()
    );
    println!("cargo:rerun-if-changed={}", tmp.display());
    lib
}

fn fail(message: &str) -> ! {
    eprintln!("error: epipen needs Z3 >= 4.13.3 and could not provision it: {message}");
    eprintln!(
        "hint: install python3 with pip and network access to PyPI, or point EPIPEN_Z3_DIR at a \
         directory holding libz3.so (>= 4.13.3), or install a system Z3 >= 4.13.3 with pkg-config"
    );
    println!("cargo:warning=Z3 provisioning failed: {message} (see docs/z3.md)");
    exit(1);
}
