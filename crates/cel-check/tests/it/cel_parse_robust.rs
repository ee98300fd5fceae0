//! The parser never panics and never overflows the stack: random inputs (a xorshift generator
//! over CEL-ish fragments and raw characters), deep nesting at and past cel-go's limits, long
//! chains, huge input.

use crdkit_cel_check::{ParseOptions, parse, parse_with};

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

const FRAGMENTS: &[&str] = &[
    "a",
    "self",
    "x",
    "1",
    "-",
    "--",
    "!",
    "2u",
    "0x1F",
    "1.5e3",
    ".5",
    "'s'",
    "\"",
    "'",
    "r'x'",
    "b'\\x00'",
    "\"\"\"",
    "'''",
    "\\",
    "\\u12",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ".",
    ".?",
    "[?",
    "?",
    ":",
    ",",
    "+",
    "*",
    "/",
    "%",
    "==",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "&&",
    "||",
    "in",
    "true",
    "null",
    "has(",
    "all(",
    ".map(",
    ".filter(",
    ".exists(",
    "x, ",
    "optMap(",
    ".sortBy(",
    "`a-b`",
    " ",
    "\n",
    "\t",
    "// c\n",
    "é",
    "😁",
    "\u{a0}",
    "=",
    "&",
    "|",
    "$",
    "@",
    "#",
    "9223372036854775808",
    "1e999",
    "'\\ud800'",
    "transformMap(k, v, ",
    "Msg{",
    "f: ",
    "?x",
];

fn random_input(rng: &mut XorShift) -> String {
    let n = 1 + rng.next() % 24;
    let mut s = String::new();
    for _ in 0..n {
        if rng.next().is_multiple_of(8) {
            // A raw character, including odd code points.
            let c = char::from_u32((rng.next() % 0x11_0000) as u32).unwrap_or('\u{fffd}');
            s.push(c);
        } else {
            s.push_str(rng.pick(FRAGMENTS));
        }
    }
    s
}

#[test]
fn random_inputs_do_not_panic() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let small = ParseOptions {
        error_recovery_limit: 4,
        error_recovery_lookahead_limit: 4,
        ..ParseOptions::default()
    };
    for _ in 0..20_000 {
        let s = random_input(&mut rng);
        let a = parse(&s);
        let _ = parse_with(&s, &small);
        if let Err(e) = a {
            let text = e.to_string();
            assert!(text.starts_with("ERROR: <input>:"), "{s:?}: {text}");
        }
    }
}

/// Runs `f` on a thread with the stack a proc macro gets at least (rustc runs macros on its
/// main thread, 8 MiB) halved, to keep a margin.
fn with_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(4 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn deep_nesting_hits_cel_go_limits() {
    with_stack(|| {
        // 249 parentheses: `expr` is entered 250 times, the limit.
        let ok = format!("{}a{}", "(".repeat(249), ")".repeat(249));
        parse(&ok).unwrap();
        for open in ["(", "[", "{1:", "f(", "a.b(", "!(", "-(", "x[", "{?1:"] {
            let close: String = open
                .chars()
                .rev()
                .filter_map(|c| match c {
                    '(' => Some(')'),
                    '[' => Some(']'),
                    '{' => Some('}'),
                    _ => None,
                })
                .collect();
            let s = format!("{}a{}", open.repeat(300), close.repeat(300));
            let e = parse(&s).unwrap_err().to_string();
            assert!(
                e.starts_with("ERROR: <input>:-1:0: expression recursion limit exceeded: 250")
                    || e.starts_with("ERROR: <input>:-1:0: max recursion depth exceeded"),
                "{open}: {e}"
            );
        }
        // Deep nesting with no closing brackets at all, and far past the limit.
        for open in ["(", "[", "{", "!", "-", "a ? b : ", "a[", "f("] {
            let _ = parse(&open.repeat(20_000));
        }
    });
}

#[test]
fn long_chains_hit_the_visitor_limit_like_cel_go() {
    with_stack(|| {
        // cel-go's visitor counts nested operators: 250 `+` operators parse, 251 do not.
        let ok = vec!["a"; 251].join(" + ");
        parse(&ok).unwrap();
        let bad = vec!["a"; 252].join(" + ");
        assert_eq!(
            parse(&bad).unwrap_err().to_string(),
            "ERROR: <input>:-1:0: max recursion depth exceeded"
        );
        let sel = format!("a{}", ".b".repeat(251));
        assert_eq!(
            parse(&sel).unwrap_err().to_string(),
            "ERROR: <input>:-1:0: max recursion depth exceeded"
        );
        // `||` and `&&` chains are balanced trees, not counted.
        parse(&vec!["a"; 5000].join(" || ")).unwrap();
        parse(&"!".repeat(10_001)).unwrap_err();
        parse(&format!("{}a", "!".repeat(10_000))).unwrap();
        parse(&format!("{}1", "-".repeat(10_001))).unwrap();
    });
}

#[test]
fn size_limit() {
    let s = "1 + ".repeat(25_000) + "1";
    let e = parse(&s).unwrap_err().to_string();
    assert_eq!(
        e,
        "ERROR: <input>:-1:0: expression code point size exceeds limit: size: 100001, limit 100000"
    );
    let many_errors = "$".repeat(99_999);
    let e = parse(&many_errors).unwrap_err().to_string();
    assert!(
        e.ends_with("1 more errors were truncated"),
        "{}",
        &e[e.len() - 200..]
    );
}

/// Input shallow enough to be parsed on the caller's stack fits in 1 MiB (half of Rust's
/// default thread stack) even unoptimised.
#[test]
fn shallow_input_fits_a_small_stack() {
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            for open in [
                "(", "[", "{1:", "f(", "a.b(", "!(", "x[", "{?1:", "M{f:", "[?",
            ] {
                let close: String = open
                    .chars()
                    .rev()
                    .filter_map(|c| match c {
                        '(' => Some(')'),
                        '[' => Some(']'),
                        '{' => Some('}'),
                        _ => None,
                    })
                    .collect();
                let s = format!("{}a.all(x, x ? y : z){}", open.repeat(22), close.repeat(22));
                let _ = parse(&s);
                let _ = parse(&open.repeat(22));
            }
        })
        .unwrap()
        .join()
        .unwrap();
}
