//! Reading manifests (YAML, JSON, multi-document, `kind: List`) never panics.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        let _ = crdkit_cli::parse_manifests(text, std::path::Path::new("fuzz.yaml"));
    }
});
