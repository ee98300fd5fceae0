//! Compile-time diagnostics: every error the derives report, as rustc prints it.
//! `TRYBUILD=overwrite cargo test --test ui` blesses the `.stderr` files.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/*/*.rs");
}
