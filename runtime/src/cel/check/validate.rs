//! The AST validators of the Kubernetes environment (apiserver `environment/base.go`), run
//! after a successful check: cel-go `cel/validator.go` `ValidateHomogeneousAggregateLiterals`
//! (from 1.0, through `cel.HomogeneousAggregateLiterals()`; it skips list and map literals
//! inside `format` calls, as the strings extension configures it), `ValidateDurationLiterals`,
//! `ValidateTimestampLiterals` and `ValidateRegexLiterals` (from 1.29), and the strings
//! extension's check of literal `format` calls (from 1.29, `format.rs`).
//!
//! cel-go validates a literal by evaluating the call; here Go's `time.ParseDuration`,
//! `time.Parse(time.RFC3339, _)` with CEL's timestamp range, and RE2 syntax (through the
//! `regex` crate, whose syntax differs from RE2 in rare corners) are reproduced directly.

use super::walk;
use super::{CheckedAst, Reference};
use crate::cel::env::{CheckEnv, Library};
use crate::cel::types::Type;
use crate::cel::{ExprId, ExprKind, Issue, Literal};

pub(super) fn validate(checked: &CheckedAst, env: &CheckEnv) -> Vec<Issue> {
    let mut issues = Vec::new();
    // The strings extension from version 1 (Kubernetes 1.29) checks literal `format` calls
    // and exempts their arguments from the homogeneous-literal rule.
    let strings_v1 = env.libraries.contains(&Library::Strings) && env.version >= (1, 29);
    if !env.ast_validators && !strings_v1 && !env.homogeneous_aggregate_literals {
        return issues;
    }
    let nodes = reachable(checked);
    let mut report = |id: ExprId, message: String| {
        let span = checked.ast.expr(id).span;
        let location = checked
            .source
            .location(checked.source.cp_of_byte(span.start));
        issues.push(Issue {
            location: Some(location),
            message,
        });
    };
    // cel-go runs the validators in the order they were added; errors are sorted by position.
    if env.homogeneous_aggregate_literals {
        homogeneous(checked, &nodes, strings_v1, &mut report);
    }
    if env.ast_validators {
        literals(checked, &nodes, &mut report);
    }
    if strings_v1 {
        report_format_errors(checked, &nodes, &mut report);
    }
    issues
}

/// `ValidateDurationLiterals`, `ValidateTimestampLiterals` and `ValidateRegexLiterals`.
fn literals(
    checked: &CheckedAst,
    nodes: &[(ExprId, bool)],
    report: &mut impl FnMut(ExprId, String),
) {
    for (function, valid) in [
        ("duration", valid_duration_arg as fn(&Literal) -> bool),
        ("timestamp", valid_timestamp_arg),
        ("matches", valid_regex_arg),
    ] {
        for &(id, _) in nodes {
            let ExprKind::Call {
                function: f, args, ..
            } = &checked.ast.expr(id).kind
            else {
                continue;
            };
            let Some(&arg) = args.first() else { continue };
            if f != function {
                continue;
            }
            if let ExprKind::Literal(l) = &checked.ast.expr(arg).kind
                && !valid(l)
            {
                report(arg, format!("invalid {function} argument"));
            }
        }
    }
}

/// `ValidateHomogeneousAggregateLiterals`.
fn homogeneous(
    checked: &CheckedAst,
    nodes: &[(ExprId, bool)],
    format_exempt: bool,
    report: &mut impl FnMut(ExprId, String),
) {
    for &(id, exempt) in nodes {
        if exempt && format_exempt {
            continue;
        }
        let type_of = |e: ExprId| checked.type_of(e).cloned().unwrap_or(Type::Error);
        let param = |t: Type| t.parameters().first().map_or(Type::Error, |p| (*p).clone());
        match &checked.ast.expr(id).kind {
            ExprKind::List {
                elems,
                optional_indices,
            } => {
                let mut first: Option<Type> = None;
                for (i, &e) in elems.iter().enumerate() {
                    let mut t = type_of(e);
                    if optional_indices.contains(&(i as u32)) {
                        t = param(t);
                    }
                    match &first {
                        None => first = Some(t),
                        Some(f) if !f.is_type(&t, false) => {
                            report(e, format!("expected type '{f}' but found '{t}'"));
                            break;
                        }
                        Some(_) => {}
                    }
                }
            }
            ExprKind::Map { entries } => {
                let mut first: Option<(Type, Type)> = None;
                for entry in entries {
                    let kt = type_of(entry.key);
                    let mut vt = type_of(entry.value);
                    if entry.optional {
                        vt = param(vt);
                    }
                    let Some((fk, fv)) = &first else {
                        first = Some((kt, vt));
                        continue;
                    };
                    if !fk.is_type(&kt, false) {
                        report(entry.key, format!("expected type '{fk}' but found '{kt}'"));
                    }
                    if !fv.is_type(&vt, false) {
                        report(
                            entry.value,
                            format!("expected type '{fv}' but found '{vt}'"),
                        );
                    }
                }
            }
            _ => {}
        }
    }
}

fn report_format_errors(
    checked: &CheckedAst,
    nodes: &[(ExprId, bool)],
    report: &mut impl FnMut(ExprId, String),
) {
    for &(id, _) in nodes {
        if let Some((at, message)) = super::format::check_call(checked, id) {
            report(at, message);
        }
    }
}

/// The nodes of the checked expression (without the operands of qualified names and the
/// targets of namespaced calls), each with whether it is inside a `format` call.
fn reachable(checked: &CheckedAst) -> Vec<(ExprId, bool)> {
    let ast = &checked.ast;
    let mut out = Vec::new();
    let mut stack = vec![(ast.root, false)];
    while let Some((id, in_format)) = stack.pop() {
        out.push((id, in_format));
        let kind = &ast.expr(id).kind;
        if matches!(kind, ExprKind::Select { .. })
            && matches!(checked.reference(id), Some(Reference::Ident(_)))
        {
            continue;
        }
        let in_format =
            in_format || matches!(kind, ExprKind::Call { function, .. } if function == "format");
        let skip = checked.call_target(id).is_none();
        let target = match kind {
            ExprKind::Call { target, .. } => *target,
            _ => None,
        };
        let mut children = walk::children(ast, id);
        if skip {
            children.retain(|c| Some(*c) != target);
        }
        stack.extend(children.into_iter().rev().map(|c| (c, in_format)));
    }
    out
}

fn valid_duration_arg(l: &Literal) -> bool {
    match l {
        Literal::String(s) => parse_go_duration(s).is_some(),
        _ => true,
    }
}

fn valid_timestamp_arg(l: &Literal) -> bool {
    match l {
        Literal::String(s) => parse_rfc3339_seconds(s).is_some_and(in_timestamp_range),
        Literal::Int(i) => in_timestamp_range(*i),
        _ => true,
    }
}

fn valid_regex_arg(l: &Literal) -> bool {
    match l {
        Literal::String(s) => regex::Regex::new(s).is_ok(),
        _ => true,
    }
}

/// CEL's timestamp range: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
fn in_timestamp_range(unix: i64) -> bool {
    (-62_135_596_800..=253_402_300_799).contains(&unix)
}

/// Go `time.ParseDuration`, in nanoseconds.
pub(crate) fn parse_go_duration(s: &str) -> Option<i64> {
    let (neg, mut s) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if s == "0" {
        return Some(0);
    }
    if s.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    while !s.is_empty() {
        let b = s.as_bytes()[0];
        if !(b == b'.' || b.is_ascii_digit()) {
            return None;
        }
        let digits = s.bytes().take_while(u8::is_ascii_digit).count();
        let mut v: u64 = 0;
        for d in s[..digits].bytes() {
            v = v.checked_mul(10)?.checked_add(u64::from(d - b'0'))?;
            if v > 1 << 63 {
                return None;
            }
        }
        s = &s[digits..];
        let (mut frac, mut scale, mut post) = (0u64, 1f64, false);
        if let Some(rest) = s.strip_prefix('.') {
            let n = rest.bytes().take_while(u8::is_ascii_digit).count();
            let mut overflow = false;
            for d in rest[..n].bytes() {
                if overflow {
                    continue;
                }
                match frac
                    .checked_mul(10)
                    .and_then(|x| x.checked_add(u64::from(d - b'0')))
                {
                    Some(x) if x <= 1 << 63 => {
                        frac = x;
                        scale *= 10.0;
                    }
                    _ => overflow = true,
                }
            }
            post = n > 0;
            s = &rest[n..];
        }
        if digits == 0 && !post {
            return None;
        }
        let unit_len = s
            .char_indices()
            .find(|(_, c)| *c == '.' || c.is_ascii_digit())
            .map_or(s.len(), |(i, _)| i);
        if unit_len == 0 {
            return None;
        }
        let unit: u64 = match &s[..unit_len] {
            "ns" => 1,
            "us" | "\u{b5}s" | "\u{3bc}s" => 1_000,
            "ms" => 1_000_000,
            "s" => 1_000_000_000,
            "m" => 60_000_000_000,
            "h" => 3_600_000_000_000,
            _ => return None,
        };
        s = &s[unit_len..];
        if v > (1u64 << 63) / unit {
            return None;
        }
        v *= unit;
        if frac > 0 {
            #[allow(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                clippy::cast_precision_loss
            )]
            let f = (frac as f64 * (unit as f64 / scale)) as u64;
            v = v.checked_add(f)?;
            if v > 1 << 63 {
                return None;
            }
        }
        total = total.checked_add(v)?;
        if total > 1 << 63 {
            return None;
        }
    }
    if neg {
        return i64::try_from(-i128::from(total)).ok();
    }
    i64::try_from(total).ok()
}

/// Go `time.Parse(time.RFC3339, s)`, in Unix seconds.
pub(crate) fn parse_rfc3339_seconds(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    let num = |from: usize, len: usize| -> Option<i64> {
        let part = b.get(from..from + len)?;
        part.iter().all(u8::is_ascii_digit).then(|| {
            part.iter()
                .fold(0i64, |acc, d| acc * 10 + i64::from(d - b'0'))
        })
    };
    let sep = |i: usize, c: u8| b.get(i) == Some(&c);
    if !(sep(4, b'-') && sep(7, b'-') && sep(10, b'T') && sep(13, b':') && sep(16, b':')) {
        return None;
    }
    let (year, month, day) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
    let (hour, minute, second) = (num(11, 2)?, num(14, 2)?, num(17, 2)?);
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let mut i = 19;
    if sep(i, b'.') || sep(i, b',') {
        let n = b[i + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if n == 0 {
            return None;
        }
        i += 1 + n;
    }
    let offset = match b.get(i) {
        Some(b'Z') if i + 1 == b.len() => 0,
        Some(&c @ (b'+' | b'-')) if i + 6 == b.len() && sep(i + 3, b':') => {
            let (h, m) = (num(i + 1, 2)?, num(i + 4, 2)?);
            if h > 23 || m > 59 {
                return None;
            }
            let o = h * 3600 + m * 60;
            if c == b'-' { -o } else { o }
        }
        _ => return None,
    };
    Some(days_from_civil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset)
}

fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date.
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_durations() {
        assert_eq!(parse_go_duration("1h30m"), Some(5_400_000_000_000));
        assert_eq!(parse_go_duration("-1.5s"), Some(-1_500_000_000));
        assert_eq!(parse_go_duration(".5ms"), Some(500_000));
        assert_eq!(parse_go_duration("0"), Some(0));
        assert_eq!(parse_go_duration("1"), None);
        assert_eq!(parse_go_duration("1d"), None);
        assert_eq!(parse_go_duration(""), None);
        assert_eq!(parse_go_duration("."), None);
        assert_eq!(parse_go_duration("3000000h"), None);
        assert_eq!(
            parse_go_duration("2562047h"),
            Some(2_562_047 * 3_600_000_000_000)
        );
    }

    #[test]
    fn rfc3339() {
        assert_eq!(parse_rfc3339_seconds("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_rfc3339_seconds("2009-02-13T23:31:30.5Z"),
            Some(1_234_567_890)
        );
        assert_eq!(parse_rfc3339_seconds("1970-01-01T01:00:00+01:00"), Some(0));
        assert_eq!(parse_rfc3339_seconds("2023-02-29T00:00:00Z"), None);
        assert_eq!(parse_rfc3339_seconds("2023-01-01"), None);
        assert_eq!(
            parse_rfc3339_seconds("0001-01-01T00:00:00Z"),
            Some(-62_135_596_800)
        );
    }
}
