//! Any JSON read as a CRD is either rejected by the decoder or checked without a panic, and a
//! checked CRD's errors print.
#![no_main]

use crdkit_schema::crd::CustomResourceDefinition;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(value) = serde_json::from_slice::<serde_json::Value>(data) else { return };
    if let Ok(crd) = CustomResourceDefinition::from_value(value) {
        for e in crdkit_crd::crd_check::check_crd(&crd) {
            let _ = e.to_string();
        }
    }
});
