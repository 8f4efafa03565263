//! Lists the stories the web playground compiles in: `OUT_DIR/stories.rs`.

use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    list_stories();
}

/// Writes `OUT_DIR/stories.rs`: `stories/*.story` by file name, for `src/serve`.
fn list_stories() {
    println!("cargo:rerun-if-changed=../../stories");
    let dir = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").expect("cargo sets it"))
        .join("../../stories");
    let mut files: Vec<PathBuf> = fs::read_dir(&dir)
        .map(|entries| {
            entries
                .filter_map(|e| Some(e.ok()?.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "story"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let mut out = String::from("&[\n");
    for file in &files {
        let name = file.file_name().expect("a file").to_string_lossy();
        out.push_str(&format!(
            "    ({name:?}, include_str!({:?})),\n",
            file.display().to_string()
        ));
    }
    out.push_str("]\n");
    let path =
        PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")).join("stories.rs");
    fs::write(&path, out).unwrap_or_else(|e| panic!("cannot write {}: {e}", path.display()));
}
