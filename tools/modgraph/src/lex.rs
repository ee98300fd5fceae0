//! A lexer just good enough to find paths in Rust source: identifiers, `::` and punctuation, with
//! comments, string, character and number literals and lifetimes skipped.

/// One token and the line it starts on (1-based).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Token {
    pub tok: Tok,
    pub line: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Tok {
    /// An identifier or keyword; `r#type` is `type`, `$crate` is `crate`.
    Ident(String),
    /// `::`
    PathSep,
    /// Any other punctuation character.
    Punct(char),
}

impl Token {
    pub(crate) fn ident(&self) -> Option<&str> {
        match &self.tok {
            Tok::Ident(name) => Some(name),
            _ => None,
        }
    }

    pub(crate) fn is_punct(&self, c: char) -> bool {
        self.tok == Tok::Punct(c)
    }
}

/// Splits `src` into tokens. Malformed input (an unterminated string or comment) ends the
/// stream early instead of failing: the checker reads code that rustc has accepted.
pub(crate) fn tokenize(src: &str) -> Vec<Token> {
    let chars: Vec<char> = src.chars().collect();
    let mut lexer = Lexer {
        chars: &chars,
        pos: 0,
        line: 1,
        out: Vec::new(),
    };
    lexer.run();
    lexer.out
}

struct Lexer<'a> {
    chars: &'a [char],
    pos: usize,
    line: u32,
    out: Vec<Token>,
}

fn is_ident_start(c: char) -> bool {
    c == '_' || c.is_alphabetic()
}

fn is_ident_continue(c: char) -> bool {
    c == '_' || c.is_alphanumeric()
}

impl Lexer<'_> {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
        }
        Some(c)
    }

    fn push(&mut self, tok: Tok, line: u32) {
        self.out.push(Token { tok, line });
    }

    fn run(&mut self) {
        while let Some(c) = self.peek(0) {
            let line = self.line;
            match c {
                c if c.is_whitespace() => {
                    self.bump();
                }
                '/' if self.peek(1) == Some('/') => self.line_comment(),
                '/' if self.peek(1) == Some('*') => self.block_comment(),
                '"' => {
                    self.bump();
                    self.quoted('"');
                }
                '\'' => self.quote_or_lifetime(),
                'r' | 'b' | 'c' if self.literal_prefix() => {}
                c if is_ident_start(c) => {
                    let name = self.ident();
                    self.push(Tok::Ident(name), line);
                }
                c if c.is_ascii_digit() => self.number(),
                ':' if self.peek(1) == Some(':') => {
                    self.pos += 2;
                    self.push(Tok::PathSep, line);
                }
                '$' if self.peek(1).is_some_and(is_ident_start) => {
                    self.bump();
                    let name = self.ident();
                    if name != "crate" {
                        self.push(Tok::Punct('$'), line);
                    }
                    self.push(Tok::Ident(name), line);
                }
                c => {
                    self.bump();
                    self.push(Tok::Punct(c), line);
                }
            }
        }
    }

    fn ident(&mut self) -> String {
        let start = self.pos;
        while self.peek(0).is_some_and(is_ident_continue) {
            self.pos += 1;
        }
        self.chars[start..self.pos].iter().collect()
    }

    fn line_comment(&mut self) {
        while let Some(c) = self.peek(0) {
            if c == '\n' {
                break;
            }
            self.bump();
        }
    }

    /// Block comments nest in Rust.
    fn block_comment(&mut self) {
        self.pos += 2;
        let mut depth = 1usize;
        while depth > 0 {
            match (self.peek(0), self.peek(1)) {
                (Some('/'), Some('*')) => {
                    self.pos += 2;
                    depth += 1;
                }
                (Some('*'), Some('/')) => {
                    self.pos += 2;
                    depth -= 1;
                }
                (Some(_), _) => {
                    self.bump();
                }
                (None, _) => return,
            }
        }
    }

    /// The rest of a `"`- or `'`-delimited literal whose opening quote is consumed.
    fn quoted(&mut self, close: char) {
        while let Some(c) = self.bump() {
            if c == '\\' {
                self.bump();
            } else if c == close {
                return;
            }
        }
    }

    /// `'a'`, `'\n'` and `'\u{..}'` are characters; `'a` and `'static` are lifetimes or labels.
    fn quote_or_lifetime(&mut self) {
        self.bump();
        match (self.peek(0), self.peek(1)) {
            (Some('\\'), _) => self.quoted('\''),
            (Some(_), Some('\'')) => self.pos += 2,
            (Some(c), _) if is_ident_start(c) => {
                self.ident();
            }
            _ => {}
        }
    }

    /// Raw strings (`r"…"`, `r#"…"#`), byte and C strings (`b"…"`, `br#"…"#`, `c"…"`), byte
    /// characters (`b'x'`) and raw identifiers (`r#type`). Returns false for a plain identifier.
    fn literal_prefix(&mut self) -> bool {
        let line = self.line;
        let c = self.peek(0);
        let mut at = 1;
        if matches!(c, Some('b' | 'c')) && self.peek(1) == Some('r') {
            at = 2;
        }
        let raw = c == Some('r') || at == 2;
        match self.peek(at) {
            Some('"') if !raw => {
                self.pos += at + 1;
                self.quoted('"');
                true
            }
            Some('\'') if c == Some('b') => {
                self.pos += 2;
                self.quoted('\'');
                true
            }
            Some('"' | '#') if raw => {
                let mut hashes = 0;
                while self.peek(at + hashes) == Some('#') {
                    hashes += 1;
                }
                if self.peek(at + hashes) != Some('"') {
                    if c == Some('r') && hashes == 1 && self.peek(2).is_some_and(is_ident_start) {
                        self.pos += 2;
                        let name = self.ident();
                        self.push(Tok::Ident(name), line);
                        return true;
                    }
                    return false;
                }
                self.pos += at + hashes + 1;
                self.raw_body(hashes);
                true
            }
            _ => false,
        }
    }

    fn raw_body(&mut self, hashes: usize) {
        while let Some(c) = self.bump() {
            if c == '"' && (0..hashes).all(|i| self.peek(i) == Some('#')) {
                self.pos += hashes;
                return;
            }
        }
    }

    /// Digits, suffixes, exponents and a fractional part; `1..2` stays a range.
    fn number(&mut self) {
        while let Some(c) = self.peek(0) {
            let fraction = c == '.' && self.peek(1).is_some_and(|d| d.is_ascii_digit());
            if is_ident_continue(c) || fraction {
                self.pos += 1;
            } else {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Tok, tokenize};

    fn idents(src: &str) -> Vec<String> {
        tokenize(src)
            .into_iter()
            .filter_map(|t| t.ident().map(str::to_owned))
            .collect()
    }

    #[test]
    fn skips_literals_comments_and_lifetimes() {
        let src = r###"
            // crate::a
            /* crate::b /* nested */ crate::c */
            let s = "crate::d \" crate::e";
            let r = r#"crate::f "quoted" "#;
            let b = br"crate::g";
            let c = '\'';
            let d = 'x';
            fn f<'a>(x: &'a str) -> &'static str { x }
            r#type
        "###;
        assert_eq!(
            idents(src),
            [
                "let", "s", "let", "r", "let", "b", "let", "c", "let", "d", "fn", "f", "x", "str",
                "str", "x", "type"
            ]
        );
    }

    #[test]
    fn paths_and_dollar_crate() {
        let toks: Vec<Tok> = tokenize("$crate::a::b\n$x")
            .into_iter()
            .map(|t| t.tok)
            .collect();
        let ident = |s: &str| Tok::Ident(s.to_owned());
        assert_eq!(
            toks,
            [
                ident("crate"),
                Tok::PathSep,
                ident("a"),
                Tok::PathSep,
                ident("b"),
                Tok::Punct('$'),
                ident("x")
            ]
        );
        assert_eq!(tokenize("a\n\nb")[1].line, 3);
    }
}
