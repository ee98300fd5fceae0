//! The `crdgen` command line, run as a program: each directory of `tests/cli/` holds `args`
//! (run from that directory), the expected `stdout`, `stderr` (if given) and `exit_code`.
//! `BLESS=1 cargo test --test cli` writes what the program does now.

use std::path::{Path, PathBuf};
use std::process::Command;

fn run_case(dir: &Path, bless: bool) -> Result<(), String> {
    let args = std::fs::read_to_string(dir.join("args")).map_err(|e| e.to_string())?;
    let out = Command::new(env!("CARGO_BIN_EXE_crdgen"))
        .args(args.split_whitespace())
        .current_dir(dir)
        .output()
        .map_err(|e| e.to_string())?;
    let got = [
        ("stdout", String::from_utf8_lossy(&out.stdout).into_owned()),
        ("stderr", String::from_utf8_lossy(&out.stderr).into_owned()),
        (
            "exit_code",
            format!("{}\n", out.status.code().unwrap_or(-1)),
        ),
    ];
    let mut problems = Vec::new();
    for (file, text) in got {
        let path = dir.join(file);
        if bless {
            std::fs::write(&path, &text).map_err(|e| e.to_string())?;
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(want) if want == text => {}
            Ok(want) => problems.push(format!("{file}:\n--- want\n{want}--- got\n{text}")),
            Err(_) if file == "stderr" => {}
            Err(e) => problems.push(format!("{file}: {e}")),
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems.join("\n"))
    }
}

#[test]
fn cli_cases() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/cli");
    let bless = std::env::var_os("BLESS").is_some();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("tests/cli")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 10, "the CLI cases are there");
    let failures: Vec<String> = dirs
        .iter()
        .filter_map(|d| {
            run_case(d, bless)
                .err()
                .map(|e| format!("{}: {e}", d.display()))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
