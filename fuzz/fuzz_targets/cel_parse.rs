//! The CEL parser never panics and never overflows the stack.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(src) = std::str::from_utf8(data) {
        if let Ok(ast) = crdkit_cel_check::parse(src) {
            let _ = crdkit_cel_check::debug_string(&ast, ast.root, crdkit_cel_check::Adorner::None, None);
        }
    }
});
