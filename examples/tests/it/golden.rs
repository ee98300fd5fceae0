//! Golden files: each example's CRD as crdgen writes it. `BLESS=1 cargo test` rewrites them.

use std::path::PathBuf;

fn golden_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/golden")
}

#[test]
fn examples_match_golden_yaml() {
    let bless = std::env::var_os("BLESS").is_some();
    let mut failures = Vec::new();
    for (name, crd) in crdkit_examples::all().expect("example CRDs build") {
        let path = golden_dir().join(format!("{name}.crd.yaml"));
        let got = crd.to_yaml();
        if bless {
            std::fs::write(&path, &got).expect("write golden file");
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(want) if want == got => {}
            Ok(want) => failures.push(format!(
                "{name}: differs from {}\n--- want\n{want}\n--- got\n{got}",
                path.display()
            )),
            Err(e) => failures.push(format!(
                "{name}: cannot read {}: {e} (run with BLESS=1)",
                path.display()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn golden_yaml_reads_back_as_the_crd() {
    for (name, crd) in crdkit_examples::all().expect("example CRDs build") {
        let parsed: serde_json::Value =
            serde_saphyr::from_str(&crd.to_yaml()).expect("our YAML parses");
        assert_eq!(
            parsed,
            crd.to_value(),
            "{name}: YAML does not read back as the same value"
        );
    }
}

#[test]
fn examples_pass_the_api_servers_crd_validation() {
    for (name, crd) in crdkit_examples::all().expect("example CRDs build") {
        let errors = crdkit::crd_check::check_crd(&crd);
        assert!(
            errors.is_empty(),
            "{name}: {}",
            crdkit::field::aggregate(&errors)
        );
    }
}
