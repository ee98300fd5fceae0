//! The `crdgen` command line, run as a program: each directory of `tests/cli/` holds `args`
//! (run from that directory), the expected `stdout`, `stderr` (if given) and `exit_code`; a file
//! `stdin`, when there, is the program's standard input (else it reads nothing).
//! `BLESS=1 cargo test -p crdgen --test it cli` writes what the program does now.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn run_case(dir: &Path, bless: bool) -> Result<(), String> {
    let args = std::fs::read_to_string(dir.join("args")).map_err(|e| e.to_string())?;
    let stdin = match std::fs::File::open(dir.join("stdin")) {
        Ok(f) => Stdio::from(f),
        Err(_) => Stdio::null(),
    };
    let out = Command::new(env!("CARGO_BIN_EXE_crdgen"))
        .args(args.split_whitespace())
        .current_dir(dir)
        .stdin(stdin)
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
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/cli");
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

/// Runs `crdgen` with `files` written to a fresh directory; returns the exit code, stdout and
/// stderr.
fn run_files(name: &str, args: &[&str], files: &[(&str, String)]) -> (i32, String, String) {
    let dir = std::env::temp_dir().join(format!("crdgen-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (file, text) in files {
        std::fs::write(dir.join(file), text).unwrap();
    }
    let out = Command::new(env!("CARGO_BIN_EXE_crdgen"))
        .args(args)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const PRESERVE_CRD: &str = "\
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: examples.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: examples, kind: Example}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec: {type: object, x-kubernetes-preserve-unknown-fields: true}
";

/// Objects as deep as the reader takes, in YAML and JSON, go through pruning, defaulting and
/// validation; one level more is an input error, never a crash.
#[test]
fn deep_objects() {
    let head = "{\"apiVersion\": \"example.com/v1\", \"kind\": \"Example\", \"metadata\": {\"name\": \"x\"}, \"spec\": ";
    // The object is a level; `spec` is the first of the `{"a": ..}`.
    let json = |depth: usize| {
        format!(
            "{head}{}1{}}}",
            "{\"a\": ".repeat(depth - 1),
            "}".repeat(depth - 1)
        )
    };
    let yaml = |depth: usize| format!("# yaml\n{}", json(depth).replace("\"a\": ", "a: "));
    let max = crdkit_cli::MAX_DEPTH;
    for (i, text) in [json(max), yaml(max)].into_iter().enumerate() {
        let (code, out, err) = run_files(
            &format!("deep-ok-{i}"),
            &["validate", "--crd", "crd.yaml", "-o", "json", "obj.yaml"],
            &[("crd.yaml", PRESERVE_CRD.to_owned()), ("obj.yaml", text)],
        );
        assert_eq!(code, 0, "{err}");
        assert!(out.starts_with("{\"errors\":[],\"object\":"), "{out}");
    }
    for (i, text) in [json(max + 1), yaml(max + 1)].into_iter().enumerate() {
        let (code, out, err) = run_files(
            &format!("deep-bad-{i}"),
            &["validate", "--crd", "crd.yaml", "obj.yaml"],
            &[("crd.yaml", PRESERVE_CRD.to_owned()), ("obj.yaml", text)],
        );
        assert_eq!((code, out.as_str()), (2, ""), "{err}");
        assert!(err.starts_with("crdgen: obj.yaml:"), "{err}");
        assert!(
            err.trim_end()
                .ends_with(&format!("nested deeper than {max} levels")),
            "{err}"
        );
    }
}

/// Huge strings and numbers: handled (a string of 5 MB) or reported (numbers beyond `f64`).
#[test]
fn huge_values() {
    let big = format!(
        "apiVersion: example.com/v1\nkind: Example\nmetadata: {{name: x}}\nspec:\n  s: {}\n  num: 123456789012345678901234567890\n",
        "a".repeat(5 << 20)
    );
    let (code, out, err) = run_files(
        "huge-ok",
        &["validate", "--crd", "crd.yaml", "-o", "json", "obj.yaml"],
        &[("crd.yaml", PRESERVE_CRD.to_owned()), ("obj.yaml", big)],
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("\"num\":1.2345678901234568e+29"),
        "{}",
        &out[out.len() - 100..]
    );
    for (i, text) in [
        "{\"apiVersion\": \"example.com/v1\", \"kind\": \"Example\", \"spec\": {\"n\": 1e400}}",
        "apiVersion: example.com/v1\nkind: Example\nspec: {num: -1e400}\n",
    ]
    .into_iter()
    .enumerate()
    {
        let (code, out, err) = run_files(
            &format!("huge-bad-{i}"),
            &["validate", "--crd", "crd.yaml", "obj.yaml"],
            &[
                ("crd.yaml", PRESERVE_CRD.to_owned()),
                ("obj.yaml", text.to_owned()),
            ],
        );
        assert_eq!((code, out.as_str()), (2, ""), "{err}");
        assert!(err.starts_with("crdgen: obj.yaml:"), "{err}");
    }
}
