//! The CEL parser never panics and never overflows the stack.
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    if let Ok(src) = std::str::from_utf8(data) {
        if let Ok(ast) = crdkit_runtime::cel::parse(src) {
            let _ = crdkit_runtime::cel::debug_string(&ast, ast.root, crdkit_runtime::cel::Adorner::None, None);
        }
    }
});
