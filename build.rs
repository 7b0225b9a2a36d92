//! Lists the networks in `eval-tables/nets/` for the binary to carry
//! (`src/engine/nnue/built_in.rs` includes the list).

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new("eval-tables/nets");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".nnue"))
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    let mut code = String::from("/// The built-in net files: name and bytes.\n");
    code.push_str("pub static BUILT_IN_FILES: &[(&str, &[u8])] = &[\n");
    for name in &names {
        let path = std::fs::canonicalize(dir.join(name)).expect("net file path");
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(
            code,
            "    ({name:?}, include_bytes!({:?})),",
            path.display().to_string()
        );
    }
    code.push_str("];\n");
    let out = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(Path::new(&out).join("built_in_nets.rs"), code).expect("write the net list");
}
