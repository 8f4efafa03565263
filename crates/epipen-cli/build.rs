//! Lists the files the web playground compiles in: `OUT_DIR/stories.rs` (the stories),
//! `OUT_DIR/smcdel_files.rs` and `OUT_DIR/mastar_files.rs` (the example files of
//! SMCDEL's format and of mA*).

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    list("stories", ".story", "stories.rs");
    list("examples/smcdel", ".smcdel.txt", "smcdel_files.rs");
    list("examples/mastar", ".txt", "mastar_files.rs");
}

/// Writes `OUT_DIR/OUT`: the files of the workspace's folder `dir` whose names end with
/// `suffix`, by file name, for `src/serve`.
fn list(dir: &str, suffix: &str, out: &str) {
    println!("cargo:rerun-if-changed=../../{dir}");
    let dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"))
        .join("../..")
        .join(dir);
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| Some(e.ok()?.path()))
                .filter(|p| {
                    p.file_name()
                        .is_some_and(|n| n.to_string_lossy().ends_with(suffix))
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut listed = String::from("&[\n");
    for file in &files {
        let name = file.file_name().expect("a file").to_string_lossy();
        listed.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            file.display().to_string()
        ));
    }
    listed.push_str("]\n");
    let path = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join(out);
    fs::write(&path, listed).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}
