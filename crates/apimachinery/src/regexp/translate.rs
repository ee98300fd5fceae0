//! A parsed Go pattern written in the `regex` crate's syntax, every construct spelled so that it
//! means in the `regex` crate what it meant to Go's parser: classes as explicit ASCII ranges,
//! `\b` as the ASCII boundary, `^` and `$` as `\A`, `\z` or their `(?m)` forms, `.` with its
//! newline rule, case folding and greediness per node, groups unnamed (Go allows a name twice).
//!
//! Case folding is left to the `regex` crate (`(?i:...)`): both use Unicode simple case folding,
//! and both fold each part of a class before negating it, as Go's `appendFoldedClass` and
//! `appendNegatedClass` do, so `(?i)\W` excludes `K` (U+212A KELVIN SIGN) in both.

use std::fmt::Write;

use super::parse::{Class, ClassItem, Kind, Node, RepeatOp};

/// Matches nothing: Go's surrogate runes and empty classes.
const NOTHING: &str = r"[^\x{0}-\x{10FFFF}]";
const SURROGATES: (u32, u32) = (0xD800, 0xDFFF);

pub(crate) fn translate(node: &Node) -> String {
    let mut out = String::new();
    write_node(&mut out, node);
    out
}

fn write_node(out: &mut String, node: &Node) {
    match &node.kind {
        Kind::Empty => out.push_str("(?:)"),
        Kind::Literal { c, fold } => match char::from_u32(*c) {
            None => out.push_str(NOTHING),
            Some(c) if *fold => {
                out.push_str("(?i:");
                write_char(out, c);
                out.push(')');
            }
            Some(c) => write_char(out, c),
        },
        Kind::Class(class) => write_class(out, class),
        Kind::AnyChar => out.push_str("(?s:.)"),
        Kind::AnyCharNotNl => out.push_str(r"[^\n]"),
        Kind::BeginLine => out.push_str("(?m:^)"),
        Kind::EndLine => out.push_str("(?m:$)"),
        Kind::BeginText => out.push_str(r"\A"),
        Kind::EndText => out.push_str(r"\z"),
        Kind::WordBoundary => out.push_str(r"(?-u:\b)"),
        Kind::NoWordBoundary => out.push_str(r"(?-u:\B)"),
        Kind::Capture(sub) => {
            out.push('(');
            write_node(out, sub);
            out.push(')');
        }
        Kind::Repeat {
            op: RepeatOp::Count { max: Some(0), .. },
            sub,
            ..
        } => {
            // `x{0}`: a branch that cannot match, so that the groups in `x` keep their numbers
            // (the `regex` crate drops groups under `{0}`).
            out.push_str("(?:");
            out.push_str(NOTHING);
            write_node(out, sub);
            out.push_str(")?");
        }
        Kind::Repeat { op, greedy, sub } => {
            if is_atom(sub) {
                write_node(out, sub);
            } else {
                out.push_str("(?:");
                write_node(out, sub);
                out.push(')');
            }
            match *op {
                RepeatOp::Star => out.push('*'),
                RepeatOp::Plus => out.push('+'),
                RepeatOp::Quest => out.push('?'),
                RepeatOp::Count { min, max: None } => {
                    let _ = write!(out, "{{{min},}}");
                }
                RepeatOp::Count {
                    min,
                    max: Some(max),
                } if max == min => {
                    let _ = write!(out, "{{{min}}}");
                }
                RepeatOp::Count {
                    min,
                    max: Some(max),
                } => {
                    let _ = write!(out, "{{{min},{max}}}");
                }
            }
            if !greedy {
                out.push('?');
            }
        }
        Kind::Concat(subs) => {
            for sub in subs {
                write_node(out, sub);
            }
        }
        Kind::Alternate(subs) => {
            out.push_str("(?:");
            for (i, sub) in subs.iter().enumerate() {
                if i > 0 {
                    out.push('|');
                }
                write_node(out, sub);
            }
            out.push(')');
        }
    }
}

/// Whether the node's translation is one atom that a repetition operator may follow.
fn is_atom(node: &Node) -> bool {
    match &node.kind {
        // One character, a class or a group.
        Kind::Literal { .. }
        | Kind::Class(_)
        | Kind::AnyChar
        | Kind::AnyCharNotNl
        | Kind::Empty
        | Kind::Capture(_)
        | Kind::Alternate(_) => true,
        // Several pieces, an operator already, or an assertion.
        _ => false,
    }
}

/// A character outside a class: ASCII letters and digits as they are, other ASCII as `\x{..}`
/// (never a metacharacter), the rest as itself.
fn write_char(out: &mut String, c: char) {
    if c.is_ascii_alphanumeric() || !c.is_ascii() {
        out.push(c);
    } else {
        let _ = write!(out, r"\x{{{:X}}}", u32::from(c));
    }
}

fn write_class(out: &mut String, class: &Class) {
    if class.fold {
        out.push_str("(?i:");
    }
    out.push('[');
    if class.negated {
        out.push('^');
    }
    for item in &class.items {
        write_item(out, item);
    }
    out.push(']');
    if class.fold {
        out.push(')');
    }
}

fn write_item(out: &mut String, item: &ClassItem) {
    match *item {
        ClassItem::Range(lo, hi) => {
            // Surrogates are Go runes no `&str` holds: keep what lies outside them.
            let below = (lo, hi.min(SURROGATES.0 - 1));
            let above = (lo.max(SURROGATES.1 + 1), hi);
            let mut wrote = false;
            for (lo, hi) in [below, above] {
                if lo <= hi {
                    write_range(out, lo, hi);
                    wrote = true;
                }
            }
            if !wrote {
                out.push_str(NOTHING);
            }
        }
        ClassItem::Ascii { ranges, negated } => {
            if negated {
                out.push_str("[^");
            }
            for &(lo, hi) in ranges {
                write_range(out, u32::from(lo), u32::from(hi));
            }
            if negated {
                out.push(']');
            }
        }
        ClassItem::Unicode { table, negated } => {
            if table.regex == "gc=Cs" {
                // Surrogates: nothing in a `&str`, everything outside.
                out.push_str(if negated {
                    r"[\x{0}-\x{10FFFF}]"
                } else {
                    NOTHING
                });
            } else {
                let p = if negated { 'P' } else { 'p' };
                let _ = write!(out, r"\{p}{{{}}}", table.regex);
            }
        }
    }
}

fn write_range(out: &mut String, lo: u32, hi: u32) {
    if lo == hi {
        let _ = write!(out, r"\x{{{lo:X}}}");
    } else {
        let _ = write!(out, r"\x{{{lo:X}}}-\x{{{hi:X}}}");
    }
}
