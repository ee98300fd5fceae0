//! Small crates written inline: what makes an edge, and what the check reports.

use crdkit_modgraph::{CrateTree, Tree, describe, member_names};
use std::path::Path;

fn circles(files: &[(&str, &str)]) -> Vec<Vec<String>> {
    let tree = Tree::from_sources(files).expect("the synthetic crate is readable");
    tree.circles()
        .iter()
        .map(|c| member_names(&tree, c))
        .collect()
}

const NO_CIRCLE: &[Vec<String>] = &[];

fn names(members: &[&str]) -> Vec<String> {
    members.iter().map(|m| (*m).to_owned()).collect()
}

#[test]
fn top_level_circle_found_and_printed() {
    let files = [
        ("src/lib.rs", "mod a;\nmod b;\nmod c;\n"),
        ("src/a.rs", "use crate::b::B;\npub struct A;\n"),
        (
            "src/b.rs",
            "pub struct B;\nfn f(c: crate::c::C) -> crate::c::C { c }\n",
        ),
        (
            "src/c.rs",
            "// crate::b is only a comment\npub struct C(super::a::A);\n",
        ),
    ];
    assert_eq!(circles(&files), [names(&["a", "b", "c"])]);
    let tree = Tree::from_sources(&files).expect("readable");
    let circle = &tree.circles()[0];
    let krate = CrateTree {
        name: "demo".to_owned(),
        tree: Tree::from_sources(&files).expect("readable"),
    };
    let text = describe(&krate, circle, Path::new("src"));
    assert_eq!(
        text,
        "demo: in `crate`: a → b → c → a\n    a → b: a.rs:1 `crate::b::B`\n    b → c: b.rs:2 `crate::c::C`\n    \
         c → a: c.rs:2 `super::a::A`"
    );
}

#[test]
fn layered_modules_have_no_circle() {
    // `value` below `eval` and `library`; both use it, `library` uses `eval`, nothing goes up.
    let files = [
        (
            "src/lib.rs",
            "mod eval;\nmod library;\nmod value;\npub use value::Value;\n",
        ),
        ("src/value.rs", "pub enum Value { Int(i64) }\n"),
        (
            "src/eval/mod.rs",
            "mod interp;\npub use interp::run;\nuse crate::Value;\n",
        ),
        (
            "src/eval/interp.rs",
            "pub fn run() -> super::super::value::Value { crate::Value::Int(1) }\n",
        ),
        (
            "src/library.rs",
            "use crate::{eval::run, value::Value};\nfn f() -> Value { run() }\n",
        ),
    ];
    assert_eq!(circles(&files), NO_CIRCLE);
}

#[test]
fn parent_and_child_may_use_each_other() {
    // A parent declares and re-exports its children; children use what their parent defines.
    let files = [
        ("src/lib.rs", "mod m;\npub use m::f;\npub struct Shared;\n"),
        (
            "src/m/mod.rs",
            "mod x;\nmod y;\npub use x::f;\npub struct Here;\n",
        ),
        (
            "src/m/x.rs",
            "use super::Here;\nuse crate::Shared;\npub fn f() {}\n",
        ),
        (
            "src/m/y.rs",
            "use super::Here;\n#[cfg(test)]\nmod tests { use super::*; }\n",
        ),
    ];
    assert_eq!(circles(&files), NO_CIRCLE);
}

#[test]
fn file_circle_inside_a_directory() {
    // The edge from `y` to `x` goes through the parent's re-export: `super::f` is `x::f`.
    let files = [
        ("src/lib.rs", "mod m;\n"),
        ("src/m/mod.rs", "mod x;\nmod y;\nuse x::f;\n"),
        ("src/m/x.rs", "pub fn f() { super::y::g() }\n"),
        ("src/m/y.rs", "pub fn g() { super::f() }\n"),
    ];
    assert_eq!(circles(&files), [names(&["m::x", "m::y"])]);
}

#[test]
fn glob_imports_and_aliases_are_followed() {
    // `a` reaches `b` through `use super::*` and the parent's `use b as bee`.
    let files = [
        ("src/lib.rs", "mod a;\nmod b;\nuse b as bee;\n"),
        ("src/a.rs", "use super::*;\npub fn f() { bee::g() }\n"),
        ("src/b.rs", "pub fn g() { crate::a::f() }\n"),
    ];
    assert_eq!(circles(&files), [names(&["a", "b"])]);
}

#[test]
fn inline_modules_and_function_bodies_count() {
    // A `use` inside a function and a path in an inline module's code are dependencies too.
    let files = [
        ("src/lib.rs", "mod a;\nmod b;\n"),
        ("src/a.rs", "pub fn f() { use crate::b::g; g() }\n"),
        (
            "src/b.rs",
            "pub fn g() {}\nmod inner { fn h() { self::super::super::a::f() } }\n",
        ),
    ];
    assert_eq!(circles(&files), [names(&["a", "b"])]);
}

#[test]
fn other_crates_strings_and_visibility_are_no_edges() {
    let files = [
        ("src/lib.rs", "mod a;\nmod b;\n"),
        (
            "src/a.rs",
            "use b::x;\nuse ::b::y;\npub(in crate::b) fn f() {}\npub fn s() -> &'static str { \"crate::b\" }\n",
        ),
        (
            "src/b.rs",
            "use crate::a::s;\npub fn g() { std::mem::drop(s()) }\n",
        ),
    ];
    assert_eq!(circles(&files), NO_CIRCLE);
}

#[test]
fn missing_module_file_is_an_error() {
    let err = Tree::from_sources(&[("src/lib.rs", "mod gone;\n")]).expect_err("no file for `gone`");
    assert_eq!(err, "src/lib.rs: `mod gone;` has no file");
}
