//! Go's `regexp/syntax` parser with the `Perl` flags (`parse.go`): the same walk over the pattern
//! (a stack of open groups, each a list of alternatives), the same checks in the same order, the
//! same error codes and quoted expressions. It builds a small tree ([`Node`]) that keeps what
//! matching needs, with each node's height and compiled size as Go computes them for its limits.

use super::unicode::{self, Table};
use super::{Error, ErrorCode};

mod class;
mod escape;
mod repeat;
mod tree;

use escape::{parse_escape, perl_group};
use repeat::{parse_repeat, repeat_is_valid, repeat_node};
use tree::leaf;
pub(crate) use tree::{Class, ClassItem, Kind, Node, RepeatOp};

/// Go's `maxRepeat`: the largest count, also of nested counts multiplied.
const MAX_REPEAT: u32 = 1000;
/// Go's `maxHeight`: the deepest parse tree.
pub(crate) const MAX_HEIGHT: u32 = 1000;
/// Go's `maxSize`: the largest program, in instructions (128 MiB of 40-byte instructions).
const MAX_SIZE: i64 = (128 << 20) / 40;
/// Go's `maxRunes`: the most runes in all literals and classes (128 MiB of 4-byte runes).
const MAX_RUNES: u64 = (128 << 20) / 4;

// Go's parse flags that change what is parsed.
const FOLD_CASE: u8 = 1;
const ONE_LINE: u8 = 2;
const DOT_NL: u8 = 4;
const NON_GREEDY: u8 = 8;

/// An open group (Go's `opLeftParen` with what the stack holds above it).
struct Group {
    /// Capturing.
    capture: bool,
    /// The flags to restore when the group closes.
    flags: u8,
    alternatives: Vec<Node>,
    current: Vec<Node>,
}

impl Group {
    fn new(capture: bool, flags: u8) -> Self {
        Self {
            capture,
            flags,
            alternatives: Vec::new(),
            current: Vec::new(),
        }
    }
}

/// Go's `syntax.Parse(pattern, syntax.Perl)`: whether the pattern is valid, with Go's error.
/// Cheap (one pass, no compilation), for the derive as well as at run time.
pub fn check(pattern: &str) -> Result<(), Error> {
    parse(pattern).map(drop)
}

pub(crate) fn parse(pattern: &str) -> Result<Node, Error> {
    Parser::new(pattern).run()
}

struct Parser<'p> {
    whole: &'p str,
    flags: u8,
    /// Open groups; the first is the whole pattern.
    groups: Vec<Group>,
    /// Nodes made so far (Go's `numRegexp`, approximately: a literal joining the literal before
    /// it makes none, as Go reuses the node).
    nodes: i64,
    /// Product of the counted repetitions so far (Go's `repeats`), while sizes are not checked.
    repeats: i64,
    /// Whether sizes are checked (Go's `size` map being non-nil).
    sizing: bool,
    /// Runes in literals and classes (Go's `numRunes`).
    runes: u64,
}

impl<'p> Parser<'p> {
    fn new(whole: &'p str) -> Self {
        Self {
            whole,
            flags: ONE_LINE,
            groups: vec![Group::new(false, ONE_LINE)],
            nodes: 0,
            repeats: 1,
            sizing: false,
            runes: 0,
        }
    }

    fn run(mut self) -> Result<Node, Error> {
        let mut t = self.whole;
        // The pattern from the previous repetition operator on, when the previous piece was one.
        let mut last_repeat: Option<&str> = None;
        while let Some(c) = t.chars().next() {
            let mut repeat = None;
            match c {
                '(' if t[1..].starts_with('?') => t = self.perl_flags(t)?,
                '(' => {
                    self.nodes += 1;
                    self.groups.push(Group::new(true, self.flags));
                    t = &t[1..];
                }
                '|' => {
                    self.vertical_bar()?;
                    t = &t[1..];
                }
                ')' => {
                    self.right_paren()?;
                    t = &t[1..];
                }
                '^' => {
                    let kind = if self.flags & ONE_LINE != 0 {
                        Kind::BeginText
                    } else {
                        Kind::BeginLine
                    };
                    self.push(leaf(kind))?;
                    t = &t[1..];
                }
                '$' => {
                    let kind = if self.flags & ONE_LINE != 0 {
                        Kind::EndText
                    } else {
                        Kind::EndLine
                    };
                    self.push(leaf(kind))?;
                    t = &t[1..];
                }
                '.' => {
                    let kind = if self.flags & DOT_NL != 0 {
                        Kind::AnyChar
                    } else {
                        Kind::AnyCharNotNl
                    };
                    self.push(leaf(kind))?;
                    t = &t[1..];
                }
                '[' => {
                    let (class, rest) = class::parse_class(t, self.flags & FOLD_CASE != 0)?;
                    self.push_class(class)?;
                    t = rest;
                }
                '*' | '+' | '?' => {
                    let op = match c {
                        '*' => RepeatOp::Star,
                        '+' => RepeatOp::Plus,
                        _ => RepeatOp::Quest,
                    };
                    let after = self.repeat(op, t, &t[1..], last_repeat)?;
                    repeat = Some(t);
                    t = after;
                }
                '{' => match parse_repeat(t) {
                    // Not a well-formed count: `{` is a literal.
                    None => {
                        self.literal(u32::from('{'))?;
                        t = &t[1..];
                    }
                    Some((min, max, after)) => {
                        let before = t;
                        let too_big = |n: i64| n > i64::from(MAX_REPEAT);
                        if min < 0 || too_big(min) || too_big(max) || (max >= 0 && min > max) {
                            return Err(Error::new(
                                ErrorCode::InvalidRepeatSize,
                                &before[..before.len() - after.len()],
                            ));
                        }
                        // In range, so the casts are exact.
                        let op = RepeatOp::Count {
                            min: min as u32,
                            max: (max >= 0).then_some(max as u32),
                        };
                        let after = self.repeat(op, before, after, last_repeat)?;
                        repeat = Some(before);
                        t = after;
                    }
                },
                '\\' => t = self.backslash(t)?,
                c => {
                    self.literal(u32::from(c))?;
                    t = &t[c.len_utf8()..];
                }
            }
            last_repeat = repeat;
        }
        let node = self.close_group()?;
        if !self.groups.is_empty() {
            return Err(Error::new(ErrorCode::MissingParen, self.whole));
        }
        Ok(node)
    }

    /// An escape outside a class: `\A \b \B \z \Q...\E`, a Unicode or Perl class, or one
    /// character (Go `parse`, case `'\\'`). Returns the rest of the pattern.
    fn backslash(&mut self, t: &'p str) -> Result<&'p str, Error> {
        match t.as_bytes().get(1) {
            Some(b'A') => return self.push(leaf(Kind::BeginText)).map(|()| &t[2..]),
            Some(b'b') => return self.push(leaf(Kind::WordBoundary)).map(|()| &t[2..]),
            Some(b'B') => return self.push(leaf(Kind::NoWordBoundary)).map(|()| &t[2..]),
            Some(b'z') => return self.push(leaf(Kind::EndText)).map(|()| &t[2..]),
            // Any byte: not supported.
            Some(b'C') => return Err(Error::new(ErrorCode::InvalidEscape, &t[..2])),
            Some(b'Q') => {
                // Everything up to `\E` (or the end) is literal.
                let (lit, rest) = t[2..].split_once("\\E").unwrap_or((&t[2..], ""));
                for c in lit.chars() {
                    self.literal(u32::from(c))?;
                }
                return Ok(rest);
            }
            _ => {}
        }
        let fold = self.flags & FOLD_CASE != 0;
        if let Some((item, rest)) = class::unicode_class(t)? {
            self.push_class(Class {
                negated: false,
                fold,
                items: vec![item],
            })?;
            return Ok(rest);
        }
        if let Some((item, rest)) = perl_group(t) {
            self.push_class(Class {
                negated: false,
                fold,
                items: vec![item],
            })?;
            return Ok(rest);
        }
        let (c, rest) = parse_escape(t)?;
        self.literal(c)?;
        Ok(rest)
    }

    /// `(?flags)`, `(?flags:`, `(?P<name>` or `(?<name>` at the start of `s` (Go
    /// `parsePerlFlags`); returns the rest of the pattern.
    fn perl_flags(&mut self, s: &'p str) -> Result<&'p str, Error> {
        let b = s.as_bytes();
        let with_p = b.len() > 4 && b[2] == b'P' && b[3] == b'<';
        let bare = b.len() > 3 && b[2] == b'<';
        if with_p || bare {
            let start = if with_p { 4 } else { 3 };
            let Some(end) = s.find('>') else {
                return Err(Error::new(ErrorCode::InvalidNamedCapture, s));
            };
            let name = &s[start..end];
            if name.is_empty() || !name.bytes().all(|c| c == b'_' || c.is_ascii_alphanumeric()) {
                return Err(Error::new(ErrorCode::InvalidNamedCapture, &s[..=end]));
            }
            self.nodes += 1;
            self.groups.push(Group::new(true, self.flags));
            return Ok(&s[end + 1..]);
        }
        // Flags are inverted while after `-`, so that setting a flag clears it (as Go does).
        let mut flags = self.flags;
        let mut negated = false;
        let mut saw_flag = false;
        let mut t = &s[2..];
        while let Some(c) = t.chars().next() {
            t = &t[c.len_utf8()..];
            match c {
                'i' => flags |= FOLD_CASE,
                'm' => flags &= !ONE_LINE,
                's' => flags |= DOT_NL,
                'U' => flags |= NON_GREEDY,
                '-' if !negated => {
                    negated = true;
                    flags = !flags;
                    saw_flag = false;
                    continue;
                }
                ':' | ')' if !negated || saw_flag => {
                    if negated {
                        flags = !flags;
                    }
                    if c == ':' {
                        self.nodes += 1;
                        self.groups.push(Group::new(false, self.flags));
                    }
                    self.flags = flags;
                    return Ok(t);
                }
                _ => break,
            }
            saw_flag = true;
        }
        Err(Error::new(
            ErrorCode::InvalidPerlOp,
            &s[..s.len() - t.len()],
        ))
    }

    fn top(&mut self) -> &mut Group {
        let n = self.groups.len() - 1;
        &mut self.groups[n]
    }

    fn literal(&mut self, c: u32) -> Result<(), Error> {
        let fold = self.flags & FOLD_CASE != 0;
        let joins = matches!(
            self.top().current.last(),
            Some(Node { kind: Kind::Literal { fold: f, .. }, .. }) if *f == fold
        );
        if !joins {
            self.nodes += 1;
        }
        self.runes += 1;
        self.push_counted(leaf(Kind::Literal { c, fold }))
    }

    fn push_class(&mut self, class: Class) -> Result<(), Error> {
        self.runes += class.items.iter().map(ClassItem::runes).sum::<u64>();
        self.push(leaf(Kind::Class(Box::new(class))))
    }

    /// Go `push`: a new piece of the current concatenation, within the limits.
    fn push(&mut self, node: Node) -> Result<(), Error> {
        self.nodes += 1;
        self.push_counted(node)
    }

    fn push_counted(&mut self, node: Node) -> Result<(), Error> {
        self.check_limits(&node)?;
        self.top().current.push(node);
        Ok(())
    }

    /// Go `checkLimits`: the rune budget, then the program size, then the tree height.
    fn check_limits(&mut self, node: &Node) -> Result<(), Error> {
        if self.runes > MAX_RUNES {
            return Err(Error::new(ErrorCode::Large, self.whole));
        }
        if !self.sizing {
            // Go starts computing sizes only once the node count times the product of the
            // counted repetitions could exceed the budget.
            if let Kind::Repeat {
                op: RepeatOp::Count { min, max },
                ..
            } = node.kind
            {
                let n = i64::from(max.unwrap_or(min).max(1));
                self.repeats = if n > MAX_SIZE / self.repeats {
                    MAX_SIZE
                } else {
                    self.repeats * n
                };
            }
            self.sizing = self.nodes >= MAX_SIZE / self.repeats;
        }
        if self.sizing && node.size > MAX_SIZE {
            return Err(Error::new(ErrorCode::Large, self.whole));
        }
        if node.height > MAX_HEIGHT {
            return Err(Error::new(ErrorCode::NestingDepth, self.whole));
        }
        Ok(())
    }

    /// Go `repeat`: applies `op` (the text from `before` up to `after`) to the last piece.
    fn repeat(
        &mut self,
        op: RepeatOp,
        before: &'p str,
        mut after: &'p str,
        last_repeat: Option<&'p str>,
    ) -> Result<&'p str, Error> {
        let mut greedy = self.flags & NON_GREEDY == 0;
        if let Some(rest) = after.strip_prefix('?') {
            after = rest;
            greedy = !greedy;
        }
        if let Some(last) = last_repeat {
            // Perl does not stack repetitions: `a**` is an error, not `(a*)*`.
            return Err(Error::new(
                ErrorCode::InvalidRepeatOp,
                &last[..last.len() - after.len()],
            ));
        }
        let text = &before[..before.len() - after.len()];
        let Some(sub) = self.top().current.pop() else {
            return Err(Error::new(ErrorCode::MissingRepeatArgument, text));
        };
        let node = repeat_node(op, greedy, sub);
        self.nodes += 1;
        self.check_limits(&node)?;
        if let RepeatOp::Count { min, max } = op
            && (min >= 2 || max.is_some_and(|m| m >= 2))
            && !repeat_is_valid(&node, MAX_REPEAT)
        {
            return Err(Error::new(ErrorCode::InvalidRepeatSize, text));
        }
        self.top().current.push(node);
        Ok(after)
    }

    /// Go `parseVerticalBar`: the current concatenation becomes an alternative.
    fn vertical_bar(&mut self) -> Result<(), Error> {
        let node = self.concat()?;
        if self.top().alternatives.is_empty() {
            // Go pushes its `|` marker once per group.
            self.nodes += 1;
        }
        self.top().alternatives.push(node);
        Ok(())
    }

    /// Go `parseRightParen`.
    fn right_paren(&mut self) -> Result<(), Error> {
        let restore = self.top().flags;
        let capture = self.top().capture;
        let node = self.close_group()?;
        if self.groups.is_empty() {
            return Err(Error::new(ErrorCode::UnexpectedParen, self.whole));
        }
        self.flags = restore;
        let node = if capture {
            self.nodes += 1;
            let (height, size) = (node.height + 1, node.size + 2);
            Node {
                kind: Kind::Capture(Box::new(node)),
                height,
                size,
            }
        } else {
            node
        };
        // Go pushes the group's node onto the enclosing concatenation.
        self.check_limits(&node)?;
        self.top().current.push(node);
        Ok(())
    }

    /// Go `concat`: the current concatenation as one node.
    fn concat(&mut self) -> Result<Node, Error> {
        let mut items = std::mem::take(&mut self.top().current);
        let node = match items.len() {
            0 => leaf(Kind::Empty),
            1 => items.pop().unwrap_or_else(|| leaf(Kind::Empty)),
            _ => {
                self.nodes += 1;
                // A run of literals is one node in Go (a string), so it adds no height.
                let all_literal = items.iter().all(|n| matches!(n.kind, Kind::Literal { .. }));
                let height = if all_literal {
                    1
                } else {
                    1 + items.iter().map(|n| n.height).max().unwrap_or(0)
                };
                let size = items.iter().map(|n| n.size).sum::<i64>().max(1);
                Node {
                    kind: Kind::Concat(items),
                    height,
                    size,
                }
            }
        };
        self.check_limits(&node)?;
        Ok(node)
    }

    /// Go `concat` and `alternate` when a group (or the pattern) ends: the group's node. Pops
    /// the group.
    fn close_group(&mut self) -> Result<Node, Error> {
        let last = self.concat()?;
        let mut alternatives = std::mem::take(&mut self.top().alternatives);
        self.groups.pop();
        if alternatives.is_empty() {
            return Ok(last);
        }
        alternatives.push(last);
        self.nodes += 1;
        let height = 1 + alternatives.iter().map(|n| n.height).max().unwrap_or(0);
        let n = alternatives.len() as i64;
        let size = alternatives.iter().map(|n| n.size).sum::<i64>() + n - 1;
        let node = Node {
            kind: Kind::Alternate(alternatives),
            height,
            size,
        };
        self.check_limits(&node)?;
        Ok(node)
    }
}

/// Go's `unicodeTable` lookup, shared with the class parser.
pub(super) fn unicode_table(name: &str) -> Option<&'static Table> {
    unicode::lookup(name)
}
