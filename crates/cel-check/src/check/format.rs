//! The compile-time check of `'…'.format([…])` calls with a literal format string and a list
//! literal: cel-go `ext/formatting.go` (`stringFormatValidator`, `parseFormatString` with the
//! type-checking interpolator `stringFormatChecker`), as the strings extension before version 4
//! registers it (Kubernetes uses version 2).

use super::CheckedAst;
use crate::types::{Kind, Type};
use crate::{ExprId, ExprKind, Literal};

/// An error and the node it is reported at.
type Found = (ExprId, String);

/// Checks one `format` call; `None` if it is not a literal format call.
pub(super) fn check_call(c: &CheckedAst, id: ExprId) -> Option<Found> {
    let ExprKind::Call {
        target: Some(target),
        function,
        args,
    } = &c.ast.expr(id).kind
    else {
        return None;
    };
    let ids = c.overload_ids(id);
    if function != "format" || (!ids.is_empty() && !ids.iter().any(|o| o == "string_format")) {
        return None;
    }
    let ExprKind::Literal(Literal::String(format)) = &c.ast.expr(*target).kind else {
        return None;
    };
    let [list] = args.as_slice() else { return None };
    let ExprKind::List { elems, .. } = &c.ast.expr(*list).kind else {
        return None;
    };
    let mut requested = 0usize;
    if let Err((at, msg)) = parse(c, format, elems, &mut requested) {
        return Some((at.unwrap_or(id), msg));
    }
    (elems.len() > requested).then(|| {
        (
            id,
            format!(
                "too many arguments supplied to string.format (expected {requested}, got {})",
                elems.len()
            ),
        )
    })
}

/// `parseFormatString` with the checking interpolator; errors carry the argument they blame.
fn parse(
    c: &CheckedAst,
    format: &str,
    args: &[ExprId],
    requested: &mut usize,
) -> Result<(), (Option<ExprId>, String)> {
    let b = format.as_bytes();
    let (mut i, mut arg) = (0usize, 0usize);
    while i < b.len() {
        if b[i] != b'%' {
            i += 1;
            continue;
        }
        if b.get(i + 1) == Some(&b'%') {
            i += 2;
            continue;
        }
        *requested += 1;
        if i + 1 >= b.len() {
            return Err((None, "unexpected end of string".into()));
        }
        if arg >= args.len() {
            return Err((None, format!("index {arg} out of range")));
        }
        let clause_err = |e: String| (None, format!("could not parse formatting clause: {e}"));
        let mut j = i + 1;
        if b[j] == b'.' {
            j += 1;
            let start = j;
            loop {
                if j >= b.len() {
                    return Err(clause_err(
                        "error while parsing precision: could not find end of precision specifier"
                            .into(),
                    ));
                }
                if !b[j].is_ascii_digit() {
                    break;
                }
                j += 1;
            }
            let digits = &format[start..j];
            if let Err(e) = digits.parse::<i64>() {
                let why = if digits.is_empty() {
                    "invalid syntax"
                } else if matches!(e.kind(), std::num::IntErrorKind::PosOverflow) {
                    "value out of range"
                } else {
                    "invalid syntax"
                };
                return Err(clause_err(format!(
                    "error while parsing precision: error while converting precision to integer: strconv.Atoi: parsing \"{digits}\": {why}"
                )));
            }
        }
        let verb = b[j];
        let node = args[arg];
        let t = c.type_of(node).cloned().unwrap_or(Type::Dyn);
        let check = |ok: &[Kind], what: &str| -> Result<(), (Option<ExprId>, String)> {
            if matches!(t, Type::Dyn) || ok.contains(&t.kind()) {
                return Ok(());
            }
            Err((
                Some(node),
                format!(
                    "error during formatting: {what}, was given {}",
                    t.type_name()
                ),
            ))
        };
        match verb {
            b's' => {
                if let Some(bad) = unprintable(c, node) {
                    let name = c
                        .type_of(bad)
                        .map_or("dyn".to_string(), |t| t.type_name().to_string());
                    return Err((
                        Some(bad),
                        format!(
                            "error during formatting: string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given {name}"
                        ),
                    ));
                }
            }
            b'd' => check(
                &[Kind::Int, Kind::Uint],
                "decimal clause can only be used on integers",
            )?,
            b'f' => check(
                &[Kind::Double, Kind::String],
                "fixed-point clause can only be used on doubles",
            )?,
            b'e' => check(
                &[Kind::Double, Kind::String],
                "scientific clause can only be used on doubles",
            )?,
            b'b' => check(
                &[Kind::Int, Kind::Uint, Kind::Bool],
                "only integers and bools can be formatted as binary",
            )?,
            b'x' | b'X' => check(
                &[Kind::Int, Kind::Uint, Kind::String, Kind::Bytes],
                "only integers, byte buffers, and strings can be formatted as hex",
            )?,
            b'o' => check(
                &[Kind::Int, Kind::Uint],
                "octal clause can only be used on integers",
            )?,
            other => {
                // Go reads one byte as a rune.
                let r = char::from(other);
                return Err(clause_err(format!(
                    "unrecognized formatting clause \"{r}\""
                )));
            }
        }
        i = j + 1;
        arg += 1;
    }
    Ok(())
}

/// `verifyString`: the first node (the argument or, inside list and map literals, an element)
/// whose type `%s` cannot print.
fn unprintable(c: &CheckedAst, node: ExprId) -> Option<ExprId> {
    let t = c.type_of(node).cloned().unwrap_or(Type::Dyn);
    let printable = [
        Kind::List,
        Kind::Map,
        Kind::Int,
        Kind::Uint,
        Kind::Double,
        Kind::Bool,
        Kind::String,
        Kind::Timestamp,
        Kind::Bytes,
        Kind::Duration,
        Kind::Type,
        Kind::Null,
    ];
    if !matches!(t, Type::Dyn) && !printable.contains(&t.kind()) {
        return Some(node);
    }
    match &c.ast.expr(node).kind {
        ExprKind::List { elems, .. } => elems.iter().find_map(|&e| unprintable(c, e)),
        ExprKind::Map { entries } => entries
            .iter()
            .find_map(|e| unprintable(c, e.key).or_else(|| unprintable(c, e.value))),
        _ => None,
    }
}
