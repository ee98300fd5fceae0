//! Repetitions: Go's `parseRepeat`, `parseInt`, `repeatIsValid` and the sizes of `calcSize`
//! (`parse.go`).

use super::tree::{Kind, Node, RepeatOp};

pub(super) fn repeat_node(op: RepeatOp, greedy: bool, sub: Node) -> Node {
    let s = sub.size;
    // Go `calcSize`.
    let size = match op {
        RepeatOp::Star => 2 + s,
        RepeatOp::Plus | RepeatOp::Quest => 1 + s,
        RepeatOp::Count { min: 0, max: None } => 2 + s,
        RepeatOp::Count { min, max: None } => 1 + i64::from(min) * s,
        RepeatOp::Count {
            min,
            max: Some(max),
        } => i64::from(max) * s + i64::from(max) - i64::from(min),
    };
    Node {
        height: sub.height + 1,
        size: size.max(1),
        kind: Kind::Repeat {
            op,
            greedy,
            sub: Box::new(sub),
        },
    }
}

/// Go `repeatIsValid`: the counted repetitions nested in `node` multiply to at most `n`.
pub(super) fn repeat_is_valid(node: &Node, mut n: u32) -> bool {
    match &node.kind {
        Kind::Repeat { op, sub, .. } => {
            if let RepeatOp::Count { min, max } = *op {
                let m = max.unwrap_or(min);
                if max == Some(0) {
                    return true;
                }
                if m > n {
                    return false;
                }
                n = n.checked_div(m).unwrap_or(n);
            }
            repeat_is_valid(sub, n)
        }
        Kind::Capture(sub) => repeat_is_valid(sub, n),
        Kind::Concat(subs) | Kind::Alternate(subs) => subs.iter().all(|s| repeat_is_valid(s, n)),
        _ => true,
    }
}

/// Go `parseRepeat`: `{n}`, `{n,}` or `{n,m}` at the start of `t` as (min, max (-1: none), rest);
/// min is -1 when a number is too large. `None` when it is not a count.
pub(super) fn parse_repeat(t: &str) -> Option<(i64, i64, &str)> {
    let s = t.strip_prefix('{')?;
    let (mut min, s) = parse_int(s)?;
    let (max, s) = match s.strip_prefix(',') {
        None => (min, s),
        Some(s) if s.starts_with('}') => (-1, s),
        Some(s) => {
            let (max, s) = parse_int(s)?;
            if max < 0 {
                min = -1;
            }
            (max, s)
        }
    };
    let rest = s.strip_prefix('}')?;
    Some((min, max, rest))
}

/// Go `parseInt`: a decimal without leading zeros; -1 when it is 10^8 or more.
fn parse_int(s: &str) -> Option<(i64, &str)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || (digits >= 2 && s.starts_with('0')) {
        return None;
    }
    let mut n: i64 = 0;
    for b in s[..digits].bytes() {
        if n >= 100_000_000 {
            n = -1;
            break;
        }
        n = n * 10 + i64::from(b - b'0');
    }
    Some((n, &s[digits..]))
}
