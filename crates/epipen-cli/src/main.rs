#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    no_transparent_huge_pages();
    epipen_cli::main()
}

/// Transparent huge pages off for this process. A kernel set to `always` backs each
/// aligned 2 MiB of the allocator's arenas with one huge page as soon as it is touched,
/// cleared whole: a small mA* file's plan took 23 MB where 14 MB do, and clearing them
/// was up to a tenth of a large search's time (docs/benchmarks.md, "Planners"). This
/// covers Z3's allocations too; mimalloc is built without its own `madvise` for huge
/// pages (its `no_thp` feature, in Cargo.toml), which a kernel set to `madvise` would
/// honour for the arena that the runtime touches before `main`.
#[cfg(target_os = "linux")]
fn no_transparent_huge_pages() {
    // SAFETY: PR_SET_THP_DISABLE takes no pointer; should it fail, the pages stay as
    // the kernel chooses.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}

#[cfg(not(target_os = "linux"))]
fn no_transparent_huge_pages() {}
