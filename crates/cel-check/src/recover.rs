//! Token stream and ANTLR 4's `DefaultErrorStrategy`, as cel-go configures it in
//! `parser/parser.go` (`recoveryLimitErrorStrategy`, `lookaheadConsumer`, `recursionListener`,
//! the error listener with its report limit).
//!
//! ANTLR computes expected-token sets from its ATN. The grammar is small, so each call site in
//! `grammar.rs` passes the tokens that may follow locally (and whether the rule may end there);
//! the invocation stack (`frames`) supplies the rest, as ANTLR's rule-context stack does.

use super::lexer::{LexError, Tk, Token};

/// A set of token types (bit = `Tk as u8`; bit 0 is EOF).
pub(crate) type Set = u64;

pub(crate) const fn set(tks: &[Tk]) -> Set {
    let mut s = 0;
    let mut i = 0;
    while i < tks.len() {
        s |= 1 << (tks[i] as u8);
        i += 1;
    }
    s
}

/// ANTLR's `IntervalSet.StringVerbose`: one name, or `{a, b}` in token-type order.
pub(crate) fn set_string(s: Set) -> String {
    let names: Vec<&str> = (0..64)
        .filter(|i| s & (1 << i) != 0)
        .map(|i| Tk::from_index(i).name())
        .collect();
    match names.as_slice() {
        [] => "{}".to_string(),
        [one] => (*one).to_string(),
        many => format!("{{{}}}", many.join(", ")),
    }
}

/// A recognition error that unwinds to the enclosing rule's handler.
#[derive(Debug)]
pub(crate) enum RecErr {
    NoViableAlt { start: u32, offending: u32 },
    InputMismatch { offending: u32, expected: Set },
}

/// Why parsing stopped early (cel-go panics out of the ANTLR parser for these).
#[derive(Debug)]
pub(crate) enum Fatal {
    /// `expression recursion limit exceeded: N` or `error recovery token lookahead limit …`,
    /// reported at no location.
    Internal(String),
    /// The error was already reported (too many errors, recovery attempt limit).
    Reported,
}

pub(crate) enum Stop {
    Rec(RecErr),
    Fatal(Fatal),
}

impl From<Fatal> for Stop {
    fn from(f: Fatal) -> Stop {
        Stop::Fatal(f)
    }
}

/// What may follow one rule invocation inside its caller.
#[derive(Clone, Copy)]
pub(crate) struct Frame {
    pub follow: Set,
    pub eps: bool,
}

/// A syntax error as the listener receives it: code-point offset and message.
pub(crate) struct SyntaxError {
    pub cp: u32,
    pub msg: String,
}

pub(crate) struct Limits {
    pub max_depth: usize,
    pub error_reporting: usize,
    pub recovery: usize,
    pub lookahead: usize,
}

pub(crate) struct Recognizer<'a> {
    pub src: &'a str,
    pub toks: Vec<Token>,
    /// Buffer indices of on-channel tokens (the last one is EOF).
    on: Vec<u32>,
    pub pos: usize,
    lex_errors: Vec<LexError>,
    lex_next: usize,
    pub errors: Vec<SyntaxError>,
    error_reports: usize,
    pub limits: Limits,
    recovery_mode: bool,
    last_error_index: i64,
    last_error_states: Vec<u16>,
    recovery_attempts: usize,
    pub state: u16,
    pub frames: Vec<Frame>,
    depth: [usize; 17],
}

impl<'a> Recognizer<'a> {
    pub(crate) fn new(
        src: &'a str,
        toks: Vec<Token>,
        lex_errors: Vec<LexError>,
        limits: Limits,
    ) -> Self {
        let on = (0..toks.len() as u32)
            .filter(|&i| !toks[i as usize].kind.hidden())
            .collect();
        Recognizer {
            src,
            toks,
            on,
            pos: 0,
            lex_errors,
            lex_next: 0,
            errors: Vec::new(),
            error_reports: 0,
            limits,
            recovery_mode: false,
            last_error_index: -1,
            last_error_states: Vec::new(),
            recovery_attempts: 0,
            state: 0,
            frames: Vec::new(),
            depth: [0; 17],
        }
    }

    /// Buffer index of the k-th on-channel token from the current one (k >= 1), fetching it.
    pub(crate) fn lt(&mut self, k: usize) -> Result<u32, Fatal> {
        let i = (self.pos + k - 1).min(self.on.len() - 1);
        let t = self.on[i];
        self.fetch(t)?;
        Ok(t)
    }

    pub(crate) fn la(&mut self, k: usize) -> Result<Tk, Fatal> {
        let t = self.lt(k)?;
        Ok(self.toks[t as usize].kind)
    }

    /// The token before the current one (ANTLR `LT(-1)`), if any.
    pub(crate) fn prev(&self) -> Option<u32> {
        self.pos.checked_sub(1).map(|i| self.on[i])
    }

    /// Emits the lexer errors raised while producing tokens up to buffer index `t`.
    fn fetch(&mut self, t: u32) -> Result<(), Fatal> {
        while self.lex_next < self.lex_errors.len() && self.lex_errors[self.lex_next].before <= t {
            let e = &self.lex_errors[self.lex_next];
            let msg = format!("token recognition error at: '{}'", escape_ws(&e.text));
            let cp = e.cp;
            self.lex_next += 1;
            self.syntax_error(cp, msg)?;
        }
        Ok(())
    }

    pub(crate) fn consume(&mut self) -> Result<(), Fatal> {
        if self.toks[self.on[self.pos] as usize].kind != Tk::Eof {
            self.pos += 1;
            self.lt(1)?;
        }
        Ok(())
    }

    /// cel-go's `SyntaxError` listener: prefixes, counts and enforces `ErrorReportingLimit`.
    pub(crate) fn syntax_error(&mut self, cp: u32, msg: String) -> Result<(), Fatal> {
        if self.error_reports < self.limits.error_reporting {
            self.error_reports += 1;
            self.errors.push(SyntaxError { cp, msg });
            Ok(())
        } else {
            let msg = format!("More than {} syntax errors", self.limits.error_reporting);
            self.errors.push(SyntaxError { cp, msg });
            Err(Fatal::Reported)
        }
    }

    fn notify(&mut self, tok: u32, msg: String) -> Result<(), Fatal> {
        let cp = self.toks[tok as usize].cp;
        self.syntax_error(cp, msg)
    }

    /// `recursionListener.EnterEveryRule`.
    pub(crate) fn enter(&mut self, rule: usize) -> Result<(), Fatal> {
        self.depth[rule] += 1;
        if self.depth[rule] > self.limits.max_depth {
            return Err(Fatal::Internal(format!(
                "expression recursion limit exceeded: {}",
                self.limits.max_depth
            )));
        }
        Ok(())
    }

    pub(crate) fn exit(&mut self, rule: usize) {
        self.depth[rule] = self.depth[rule].saturating_sub(1);
    }

    pub(crate) fn text(&self, tok: u32) -> &str {
        let t = &self.toks[tok as usize];
        self.src
            .get(t.start as usize..t.end as usize)
            .unwrap_or_default()
    }

    /// ANTLR `getTokenErrorDisplay`.
    fn display(&self, tok: u32) -> String {
        let t = &self.toks[tok as usize];
        let s = if t.kind == Tk::Eof {
            "<EOF>"
        } else {
            self.text(tok)
        };
        format!("'{}'", escape_ws(s))
    }

    /// `getExpectedTokens`: the local set, extended through the invocation stack while the rule
    /// may end, plus EOF when the outermost rule may end.
    pub(crate) fn expected(&self, local: Set, eps: bool) -> Set {
        let mut s = local;
        if !eps {
            return s;
        }
        for f in self.frames.iter().rev() {
            s |= f.follow;
            if !f.eps {
                return s;
            }
        }
        s | Tk::Eof.bit()
    }

    fn recovery_set(&self) -> Set {
        self.frames.iter().fold(0, |s, f| s | f.follow)
    }

    pub(crate) fn report_match(&mut self) {
        self.recovery_mode = false;
        self.last_error_states.clear();
        self.last_error_index = -1;
    }

    /// Consumes the current token, which the caller has checked.
    pub(crate) fn take(&mut self) -> Result<u32, Fatal> {
        let t = self.lt(1)?;
        self.report_match();
        self.consume()?;
        Ok(t)
    }

    /// `Parser.Match` with `RecoverInline`. `after`/`after_eps` describe what may follow `tk`.
    pub(crate) fn expect(
        &mut self,
        tk: Tk,
        state: u16,
        after: Set,
        after_eps: bool,
    ) -> Result<u32, Stop> {
        self.state = state;
        if self.la(1)? == tk {
            return Ok(self.take()?);
        }
        self.check_attempts()?;
        let mut budget = self.limits.lookahead;
        // Single-token deletion.
        let expecting = tk.bit();
        if expecting & self.la(2)?.bit() != 0 {
            self.report_unwanted(expecting)?;
            self.consume_counted(&mut budget)?;
            let t = self.lt(1)?;
            self.report_match();
            self.consume_counted(&mut budget)?;
            return Ok(t);
        }
        // Single-token insertion.
        if self.expected(after, after_eps) & self.la(1)?.bit() != 0 {
            let cur = self.lt(1)?;
            if !self.recovery_mode {
                self.recovery_mode = true;
                let msg = format!("missing {} at {}", set_string(expecting), self.display(cur));
                self.notify(cur, msg)?;
            }
            let at = if self.toks[cur as usize].kind == Tk::Eof {
                self.prev().unwrap_or(cur)
            } else {
                cur
            };
            let mut t = self.toks[at as usize];
            t.kind = tk;
            t.end = t.start;
            self.toks.push(t);
            return Ok((self.toks.len() - 1) as u32);
        }
        let offending = self.lt(1)?;
        Err(Stop::Rec(RecErr::InputMismatch {
            offending,
            expected: expecting,
        }))
    }

    fn consume_counted(&mut self, budget: &mut usize) -> Result<(), Fatal> {
        if *budget == 0 {
            return Err(Fatal::Internal(format!(
                "error recovery token lookahead limit exceeded: {}",
                self.limits.lookahead
            )));
        }
        *budget -= 1;
        self.consume()
    }

    fn check_attempts(&mut self) -> Result<(), Fatal> {
        if self.recovery_attempts == self.limits.recovery {
            self.recovery_attempts += 1;
            let cur = self.lt(1)?;
            let msg = format!(
                "error recovery attempt limit exceeded: {}",
                self.limits.recovery
            );
            self.notify(cur, msg)?;
            return Err(Fatal::Reported);
        }
        self.recovery_attempts += 1;
        Ok(())
    }

    fn report_unwanted(&mut self, expecting: Set) -> Result<(), Fatal> {
        if self.recovery_mode {
            return Ok(());
        }
        self.recovery_mode = true;
        let cur = self.lt(1)?;
        let msg = format!(
            "extraneous input {} expecting {}",
            self.display(cur),
            set_string(expecting)
        );
        self.notify(cur, msg)
    }

    /// `DefaultErrorStrategy.Sync` at an ATN state whose local next tokens are `local`.
    pub(crate) fn sync(&mut self, state: u16, local: Set, loop_back: bool) -> Result<(), Stop> {
        self.state = state;
        if self.recovery_mode {
            return Ok(());
        }
        let la = self.la(1)?;
        if local & la.bit() != 0 {
            return Ok(());
        }
        let expecting = self.expected(local, false);
        if loop_back {
            self.report_unwanted(expecting)?;
            let stop = expecting | self.recovery_set();
            self.consume_until(stop, None)?;
            return Ok(());
        }
        if expecting & self.la(2)?.bit() != 0 {
            self.report_unwanted(expecting)?;
            self.consume()?;
            self.report_match();
            return Ok(());
        }
        let offending = self.lt(1)?;
        Err(Stop::Rec(RecErr::InputMismatch {
            offending,
            expected: expecting,
        }))
    }

    fn consume_until(&mut self, stop: Set, mut budget: Option<&mut usize>) -> Result<(), Fatal> {
        loop {
            let la = self.la(1)?;
            if la == Tk::Eof || stop & la.bit() != 0 {
                return Ok(());
            }
            match budget.as_deref_mut() {
                Some(b) => self.consume_counted(b)?,
                None => self.consume()?,
            }
        }
    }

    /// A rule's `errorExit`: `ReportError` then `Recover`.
    pub(crate) fn handle(&mut self, e: RecErr) -> Result<(), Fatal> {
        if !self.recovery_mode {
            self.recovery_mode = true;
            match e {
                RecErr::NoViableAlt { start, offending } => {
                    let input = if self.toks[start as usize].kind == Tk::Eof {
                        "<EOF>".to_string()
                    } else {
                        let (a, b) = (start as usize, offending as usize);
                        let mut s = String::new();
                        for t in a..=b.min(self.toks.len() - 1) {
                            if self.toks[t].kind == Tk::Eof {
                                break;
                            }
                            s.push_str(self.text(t as u32));
                        }
                        s
                    };
                    let input = escape_ws(&input);
                    let msg =
                        cel_reserved_hack(format!("no viable alternative at input '{input}'"));
                    self.notify(offending, msg)?;
                }
                RecErr::InputMismatch {
                    offending,
                    expected,
                } => {
                    let msg = format!(
                        "mismatched input {} expecting {}",
                        self.display(offending),
                        set_string(expected)
                    );
                    self.notify(offending, msg)?;
                }
            }
        }
        self.check_attempts()?;
        let mut budget = self.limits.lookahead;
        let index = self.pos as i64;
        if self.last_error_index == index && self.last_error_states.contains(&self.state) {
            self.consume_counted(&mut budget)?;
        }
        self.last_error_index = self.pos as i64;
        self.last_error_states.push(self.state);
        let stop = self.recovery_set();
        self.consume_until(stop, Some(&mut budget))
    }
}

/// ANTLR's `escapeWSAndQuote` without the quotes.
fn escape_ws(s: &str) -> String {
    s.replace('\n', "\\n")
        .replace('\r', "\\r")
        .replace('\t', "\\t")
}

/// cel-go rewrites `no viable alternative at input '.true'` (and `false`, `null`) into
/// `mismatched input 'true' expecting IDENTIFIER` (parser.go `reservedIdentifier`; its regexp
/// `.` matches any one character).
fn cel_reserved_hack(msg: String) -> String {
    const PREFIX: &str = "no viable alternative at input '";
    let Some(at) = msg.find(PREFIX) else {
        return msg;
    };
    let rest = &msg[at + PREFIX.len()..];
    let Some(first) = rest.chars().next() else {
        return msg;
    };
    let rest = &rest[first.len_utf8()..];
    for kw in ["true", "false", "null"] {
        if rest.strip_prefix(kw).is_some_and(|r| r.starts_with('\'')) {
            let end = msg.len() - rest.len() + kw.len() + 1;
            return format!(
                "{}mismatched input '{kw}' expecting IDENTIFIER{}",
                &msg[..at],
                &msg[end..]
            );
        }
    }
    msg
}
