//! The CEL lexer: the token rules of cel-go `parser/gen/CEL.g4`, with the longest-match and
//! error behaviour of an ANTLR 4 lexer.
//!
//! ANTLR picks the longest token any rule accepts (ties go to the rule defined first, so `in` is
//! a keyword and `inx` an identifier). When no rule accepts anything, it reports
//! `token recognition error at: '<text>'` where `<text>` runs from the token start up to *and
//! including* the character at which every rule had failed, then skips that character. We
//! compute, per rule family, the accepted length and the failure position, and combine them the
//! same way. Hidden tokens (whitespace, comments) are kept: the parser's "no viable alternative"
//! message quotes them.

/// Token types, numbered as in cel-go's `CEL.tokens` (the order of ANTLR's expected-token sets).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub(crate) enum Tk {
    Eof = 0,
    Equals = 1,
    NotEquals,
    In,
    Less,
    LessEquals,
    GreaterEquals,
    Greater,
    LogicalAnd,
    LogicalOr,
    LBracket,
    RBracket,
    LBrace,
    RBrace,
    LParen,
    RParen,
    Dot,
    Comma,
    Minus,
    Exclam,
    Question,
    Colon,
    Plus,
    Star,
    Slash,
    Percent,
    True,
    False,
    Null,
    Whitespace,
    Comment,
    NumFloat,
    NumInt,
    NumUint,
    String,
    Bytes,
    Identifier,
    EscIdentifier,
}

/// ANTLR's display names (literal name if any, else symbolic name), indexed by token type.
const NAMES: [&str; 38] = [
    "<EOF>",
    "'=='",
    "'!='",
    "'in'",
    "'<'",
    "'<='",
    "'>='",
    "'>'",
    "'&&'",
    "'||'",
    "'['",
    "']'",
    "'{'",
    "'}'",
    "'('",
    "')'",
    "'.'",
    "','",
    "'-'",
    "'!'",
    "'?'",
    "':'",
    "'+'",
    "'*'",
    "'/'",
    "'%'",
    "'true'",
    "'false'",
    "'null'",
    "WHITESPACE",
    "COMMENT",
    "NUM_FLOAT",
    "NUM_INT",
    "NUM_UINT",
    "STRING",
    "BYTES",
    "IDENTIFIER",
    "ESC_IDENTIFIER",
];

impl Tk {
    pub(crate) fn name(self) -> &'static str {
        NAMES[self as usize]
    }

    pub(crate) fn bit(self) -> u64 {
        1 << (self as u8)
    }

    pub(crate) fn from_index(i: u32) -> Tk {
        const ALL: [Tk; 38] = [
            Tk::Eof,
            Tk::Equals,
            Tk::NotEquals,
            Tk::In,
            Tk::Less,
            Tk::LessEquals,
            Tk::GreaterEquals,
            Tk::Greater,
            Tk::LogicalAnd,
            Tk::LogicalOr,
            Tk::LBracket,
            Tk::RBracket,
            Tk::LBrace,
            Tk::RBrace,
            Tk::LParen,
            Tk::RParen,
            Tk::Dot,
            Tk::Comma,
            Tk::Minus,
            Tk::Exclam,
            Tk::Question,
            Tk::Colon,
            Tk::Plus,
            Tk::Star,
            Tk::Slash,
            Tk::Percent,
            Tk::True,
            Tk::False,
            Tk::Null,
            Tk::Whitespace,
            Tk::Comment,
            Tk::NumFloat,
            Tk::NumInt,
            Tk::NumUint,
            Tk::String,
            Tk::Bytes,
            Tk::Identifier,
            Tk::EscIdentifier,
        ];
        ALL.get(i as usize).copied().unwrap_or(Tk::Eof)
    }

    pub(crate) fn hidden(self) -> bool {
        matches!(self, Tk::Whitespace | Tk::Comment)
    }
}

/// One token: byte range in the source and code-point offset of its start.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub kind: Tk,
    pub start: u32,
    pub end: u32,
    /// Code-point offset of `start` (cel-go locations count code points).
    pub cp: u32,
}

/// A lexer error, reported when the parser first fetches token `before` (ANTLR lexes lazily).
#[derive(Clone, Debug)]
pub(crate) struct LexError {
    pub cp: u32,
    pub text: String,
    pub before: u32,
}

#[derive(Clone)]
pub(crate) struct Lexed {
    pub tokens: Vec<Token>,
    pub errors: Vec<LexError>,
}

/// Outcome of one token rule family at a position: the longest accepted end and the position at
/// which the rule's automaton died (both byte offsets).
#[derive(Clone, Copy)]
struct Try {
    accept: Option<(usize, Tk)>,
    dies: usize,
}

impl Try {
    fn merge(self, other: Try) -> Try {
        let accept = match (self.accept, other.accept) {
            (Some(a), Some(b)) => Some(if b.0 > a.0 { b } else { a }),
            (a, b) => a.or(b),
        };
        Try {
            accept,
            dies: self.dies.max(other.dies),
        }
    }
}

pub(crate) fn lex(src: &str) -> Lexed {
    let b = src.as_bytes();
    let mut tokens = Vec::with_capacity(src.len() / 2 + 1);
    let mut errors = Vec::new();
    let mut pos = 0usize;
    let mut cp = 0u32;
    while pos < b.len() {
        let t = scan(b, pos);
        match t.accept {
            Some((end, kind)) => {
                tokens.push(Token {
                    kind,
                    start: pos as u32,
                    end: end as u32,
                    cp,
                });
                cp += count_cp(&src[pos..end]);
                pos = end;
            }
            None => {
                // Text up to and including the character where every rule failed; that
                // character is then skipped (ANTLR's lexer recovery consumes one character).
                let stop = if t.dies < b.len() {
                    next_char(src, t.dies)
                } else {
                    b.len()
                };
                let text = src.get(pos..stop).unwrap_or_default().to_string();
                errors.push(LexError {
                    cp,
                    text,
                    before: tokens.len() as u32,
                });
                cp += count_cp(&src[pos..stop]);
                pos = stop.max(pos + 1).min(b.len());
                while !src.is_char_boundary(pos) {
                    pos += 1;
                }
            }
        }
    }
    tokens.push(Token {
        kind: Tk::Eof,
        start: b.len() as u32,
        end: b.len() as u32,
        cp,
    });
    Lexed { tokens, errors }
}

fn count_cp(s: &str) -> u32 {
    s.chars().count() as u32
}

fn next_char(src: &str, at: usize) -> usize {
    src[at..]
        .chars()
        .next()
        .map_or(src.len(), |c| at + c.len_utf8())
}

fn ok(end: usize, kind: Tk) -> Try {
    Try {
        accept: Some((end, kind)),
        dies: end,
    }
}

fn fail(dies: usize) -> Try {
    Try { accept: None, dies }
}

fn scan(b: &[u8], p: usize) -> Try {
    let at = |i: usize| b.get(i).copied();
    let c = b[p];
    match c {
        b'\t' | b' ' | b'\r' | b'\n' | 0x0c => {
            let mut e = p;
            while matches!(at(e), Some(b'\t' | b' ' | b'\r' | b'\n' | 0x0c)) {
                e += 1;
            }
            ok(e, Tk::Whitespace)
        }
        b'/' if at(p + 1) == Some(b'/') => {
            let mut e = p + 2;
            while at(e).is_some_and(|c| c != b'\n') {
                e += 1;
            }
            ok(e, Tk::Comment)
        }
        b'=' => two(at(p + 1), p, b'=', Tk::Equals, None),
        b'!' => two(at(p + 1), p, b'=', Tk::NotEquals, Some(Tk::Exclam)),
        b'<' => two(at(p + 1), p, b'=', Tk::LessEquals, Some(Tk::Less)),
        b'>' => two(at(p + 1), p, b'=', Tk::GreaterEquals, Some(Tk::Greater)),
        b'&' => two(at(p + 1), p, b'&', Tk::LogicalAnd, None),
        b'|' => two(at(p + 1), p, b'|', Tk::LogicalOr, None),
        b'[' => ok(p + 1, Tk::LBracket),
        b']' => ok(p + 1, Tk::RBracket),
        b'{' => ok(p + 1, Tk::LBrace),
        b'}' => ok(p + 1, Tk::RBrace),
        b'(' => ok(p + 1, Tk::LParen),
        b')' => ok(p + 1, Tk::RParen),
        b',' => ok(p + 1, Tk::Comma),
        b'-' => ok(p + 1, Tk::Minus),
        b'?' => ok(p + 1, Tk::Question),
        b':' => ok(p + 1, Tk::Colon),
        b'+' => ok(p + 1, Tk::Plus),
        b'*' => ok(p + 1, Tk::Star),
        b'/' => ok(p + 1, Tk::Slash),
        b'%' => ok(p + 1, Tk::Percent),
        b'.' => {
            let d = digits(b, p + 1);
            if d > p + 1 {
                ok(exponent(b, d).unwrap_or(d), Tk::NumFloat)
            } else {
                ok(p + 1, Tk::Dot)
            }
        }
        b'0'..=b'9' => number(b, p),
        b'"' | b'\'' => string(b, p),
        b'`' => {
            let mut e = p + 1;
            while at(e).is_some_and(|c| c.is_ascii_alphanumeric() || b"_.-/ ".contains(&c)) {
                e += 1;
            }
            if e > p + 1 && at(e) == Some(b'`') {
                ok(e + 1, Tk::EscIdentifier)
            } else {
                fail(e)
            }
        }
        c if c.is_ascii_alphabetic() || c == b'_' => {
            let mut e = p + 1;
            while at(e).is_some_and(|c| c.is_ascii_alphanumeric() || c == b'_') {
                e += 1;
            }
            let kind = match &b[p..e] {
                b"in" => Tk::In,
                b"true" => Tk::True,
                b"false" => Tk::False,
                b"null" => Tk::Null,
                _ => Tk::Identifier,
            };
            let mut t = ok(e, kind);
            // STRING's RAW prefix and BYTES' b prefix compete with the identifier.
            if matches!(c, b'r' | b'R') && matches!(at(p + 1), Some(b'"' | b'\'')) {
                t = t.merge(raw_string(b, p + 1));
            }
            if matches!(c, b'b' | b'B') {
                let s = match at(p + 1) {
                    Some(b'"' | b'\'') => Some(string(b, p + 1)),
                    Some(b'r' | b'R') if matches!(at(p + 2), Some(b'"' | b'\'')) => {
                        Some(raw_string(b, p + 2))
                    }
                    _ => None,
                };
                if let Some(s) = s {
                    let s = Try {
                        accept: s.accept.map(|(e, _)| (e, Tk::Bytes)),
                        dies: s.dies,
                    };
                    t = t.merge(s);
                }
            }
            t
        }
        _ => fail(p),
    }
}

fn two(next: Option<u8>, p: usize, want: u8, both: Tk, single: Option<Tk>) -> Try {
    if next == Some(want) {
        return ok(p + 2, both);
    }
    match single {
        Some(k) => ok(p + 1, k),
        None => fail(p + 1),
    }
}

fn digits(b: &[u8], mut e: usize) -> usize {
    while b.get(e).is_some_and(u8::is_ascii_digit) {
        e += 1;
    }
    e
}

/// `('e'|'E') ('+'|'-')? DIGIT+` at `p`, returning its end.
fn exponent(b: &[u8], p: usize) -> Option<usize> {
    if !matches!(b.get(p), Some(b'e' | b'E')) {
        return None;
    }
    let s = if matches!(b.get(p + 1), Some(b'+' | b'-')) {
        p + 2
    } else {
        p + 1
    };
    let e = digits(b, s);
    (e > s).then_some(e)
}

fn number(b: &[u8], p: usize) -> Try {
    let is_u = |i: usize| matches!(b.get(i), Some(b'u' | b'U'));
    if b[p] == b'0' && b.get(p + 1) == Some(&b'x') {
        let mut e = p + 2;
        while b.get(e).is_some_and(u8::is_ascii_hexdigit) {
            e += 1;
        }
        if e > p + 2 {
            return if is_u(e) {
                ok(e + 1, Tk::NumUint)
            } else {
                ok(e, Tk::NumInt)
            };
        }
    }
    let d = digits(b, p);
    if b.get(d) == Some(&b'.') {
        let f = digits(b, d + 1);
        if f > d + 1 {
            return ok(exponent(b, f).unwrap_or(f), Tk::NumFloat);
        }
    }
    if let Some(e) = exponent(b, d) {
        return ok(e, Tk::NumFloat);
    }
    if is_u(d) {
        ok(d + 1, Tk::NumUint)
    } else {
        ok(d, Tk::NumInt)
    }
}

/// Length of a valid `ESC_SEQ` starting at the backslash `p`, or the failure position.
fn escape(b: &[u8], p: usize) -> Result<usize, usize> {
    let hex = |from: usize, n: usize| -> Result<usize, usize> {
        for i in from..from + n {
            if !b.get(i).is_some_and(u8::is_ascii_hexdigit) {
                return Err(i);
            }
        }
        Ok(from + n)
    };
    match b.get(p + 1) {
        Some(
            b'a' | b'b' | b'f' | b'n' | b'r' | b't' | b'v' | b'"' | b'\'' | b'\\' | b'?' | b'`',
        ) => Ok(p + 2),
        Some(b'x' | b'X') => hex(p + 2, 2),
        Some(b'u') => hex(p + 2, 4),
        Some(b'U') => hex(p + 2, 8),
        Some(b'0'..=b'3') => {
            for i in p + 2..p + 4 {
                if !matches!(b.get(i), Some(b'0'..=b'7')) {
                    return Err(i);
                }
            }
            Ok(p + 4)
        }
        _ => Err(p + 1),
    }
}

/// Quoted (non-raw) strings at `p`: the single-line and the triple-quoted alternatives.
fn string(b: &[u8], p: usize) -> Try {
    let q = b[p];
    // Single-line: q (ESC_SEQ | ~('\\'|q|'\n'|'\r'))* q
    let mut i = p + 1;
    let single = loop {
        match b.get(i) {
            None => break fail(i),
            Some(&c) if c == q => break ok(i + 1, Tk::String),
            Some(b'\n' | b'\r') => break fail(i),
            Some(b'\\') => match escape(b, i) {
                Ok(e) => i = e,
                Err(e) => break fail(e),
            },
            Some(_) => i += 1,
        }
    };
    // Triple: qqq (ESC_SEQ | ~'\\')*? qqq, ending at the first closing qqq.
    let triple = if b.get(p + 1) == Some(&q) {
        if b.get(p + 2) == Some(&q) {
            let mut i = p + 3;
            loop {
                match b.get(i) {
                    None => break fail(i),
                    Some(&c) if c == q && b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q) => {
                        break ok(i + 3, Tk::String);
                    }
                    Some(b'\\') => match escape(b, i) {
                        Ok(e) => i = e,
                        Err(e) => break fail(e),
                    },
                    Some(_) => i += 1,
                }
            }
        } else {
            fail(p + 2)
        }
    } else {
        fail(p + 1)
    };
    single.merge(triple)
}

/// Raw strings: the quote is at `p` (after the `r`).
fn raw_string(b: &[u8], p: usize) -> Try {
    let q = b[p];
    let mut i = p + 1;
    let single = loop {
        match b.get(i) {
            None => break fail(i),
            Some(&c) if c == q => break ok(i + 1, Tk::String),
            Some(b'\n' | b'\r') => break fail(i),
            Some(_) => i += 1,
        }
    };
    let triple = if b.get(p + 1) == Some(&q) && b.get(p + 2) == Some(&q) {
        let mut i = p + 3;
        loop {
            match b.get(i) {
                None => break fail(i),
                Some(&c) if c == q && b.get(i + 1) == Some(&q) && b.get(i + 2) == Some(&q) => {
                    break ok(i + 3, Tk::String);
                }
                Some(_) => i += 1,
            }
        }
    } else {
        fail(p + 2)
    };
    single.merge(triple)
}
