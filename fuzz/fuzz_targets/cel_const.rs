//! The derive's `const` checker and the run-time checker (the API server's compilation) give
//! the same verdict, message and estimated costs on generated rules over a fixed set of
//! schemas (`tests/it/cel_const.rs` does the same on a fixed corpus).
#![no_main]

use crdkit_fuzz::cel_const::{Case, compile_time, nodes, run_time};
use crdkit_shape::cel::lower::lower_source;

#[global_allocator]
static ALLOC: crdkit_fuzz::reclaim::Reclaim = crdkit_fuzz::reclaim::Reclaim;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let case = Case::generate(data);
    // Syntax errors are the derive's own report, before the `const` check.
    let Ok(rule) = lower_source(&case.rule) else {
        return;
    };
    let message = match case.message_expression.as_deref().map(lower_source) {
        Some(Ok(m)) => Some(m),
        Some(Err(_)) => return,
        None => None,
    };
    let node = &nodes()[case.node];
    let want = run_time(node, &case);
    let got = compile_time(node, &case, &rule, message.as_ref());
    if crdkit_fuzz::cel_const::comparable(&want, &got) {
        assert_eq!(want, got, "{case:?} on {}", node.name);
    }
});
