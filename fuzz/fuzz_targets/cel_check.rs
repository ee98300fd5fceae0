//! The type checker and the cost estimator never panic, whatever the rule.
#![no_main]

use crdkit_cel_check::rule::RuleOptions;
use crdkit_cel_check::{check, cost, decl::schema_decl_type, env::CheckEnv};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let schema = crdkit_fuzz::schema();
    let Some(decl) = schema_decl_type(&schema.properties["spec"], false) else { return };
    let env = CheckEnv::for_rule(&decl, data.len() % 2 == 0, &RuleOptions::default());
    if let Ok(checked) = check::compile(src, &env) {
        let _ = cost::estimate(&checked, Some(&decl), crdkit_cel_check::env::DEFAULT_COMPATIBILITY_VERSION);
    }
});
