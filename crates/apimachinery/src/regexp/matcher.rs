//! A small matcher over the parse tree, for the derive: whether a literal `default` matches its
//! `pattern`, decided at compile time without building a regex engine (the `regex` crate and its
//! tables would double the derive's dependency build). It is a Pike VM (Thompson's simulation,
//! one pass over the text, no backtracking), so any pattern Go accepts runs in time linear in
//! the text for a given program.
//!
//! Go's semantics as `crdkit-regexp` implements them with the `regex` crate: unanchored search,
//! ASCII `\b`, `$` as the end of the text unless `(?m)`. Two things need tables this crate does
//! not carry, and the matcher answers "undecided" (`None`) rather than guess:
//! - the scripts (`\p{Greek}`) for a character outside ASCII (ASCII is Latin or Common), and
//! - case folding (`(?i)`) of a character outside ASCII whose simple fold orbit is not known here
//!   (all of ASCII's orbits are: `k K` and U+212A KELVIN SIGN, `s S` and U+017F LONG S).
//!
//! General categories (`\pL`, `\p{Nd}`) come from `unicode-properties`.

use unicode_properties::UnicodeGeneralCategory;
use unicode_properties::{GeneralCategory as Gc, GeneralCategoryGroup as Group};

use super::parse::{Class, ClassItem, Kind, Node, RepeatOp};
use super::unicode::Table;

/// Programs larger than this are not run (`None`): counted repeats expand, and Go's size limit
/// is far above what a compile-time check should spend.
const MAX_PROGRAM: usize = 100_000;

const KELVIN: char = '\u{212A}';
const LONG_S: char = '\u{017F}';

/// Whether `node` matches somewhere in `text`: `Some` when decided, `None` when deciding needs
/// a table this crate does not carry (see the module docs).
pub(crate) fn is_match(node: &Node, text: &str) -> Option<bool> {
    let mut prog = Program::default();
    prog.compile(node)?;
    prog.push(Inst::Match)?;
    prog.run(text)
}

enum Inst<'n> {
    /// Consumes one character that the node (a literal, class or dot) accepts.
    Char(&'n Node),
    /// An empty-width assertion.
    Assert(&'n Kind),
    Split(usize, usize),
    Jmp(usize),
    Match,
}

#[derive(Default)]
struct Program<'n> {
    insts: Vec<Inst<'n>>,
}

impl<'n> Program<'n> {
    fn push(&mut self, inst: Inst<'n>) -> Option<usize> {
        if self.insts.len() >= MAX_PROGRAM {
            return None;
        }
        self.insts.push(inst);
        Some(self.insts.len() - 1)
    }

    fn patch(&mut self, at: usize, inst: Inst<'n>) {
        self.insts[at] = inst;
    }

    fn next(&self) -> usize {
        self.insts.len()
    }

    fn compile(&mut self, node: &'n Node) -> Option<()> {
        match &node.kind {
            Kind::Empty => {}
            Kind::Literal { .. } | Kind::Class(_) | Kind::AnyChar | Kind::AnyCharNotNl => {
                self.push(Inst::Char(node))?;
            }
            k @ (Kind::BeginLine
            | Kind::EndLine
            | Kind::BeginText
            | Kind::EndText
            | Kind::WordBoundary
            | Kind::NoWordBoundary) => {
                self.push(Inst::Assert(k))?;
            }
            Kind::Capture(sub) => self.compile(sub)?,
            Kind::Concat(subs) => {
                for sub in subs {
                    self.compile(sub)?;
                }
            }
            Kind::Alternate(subs) => {
                let mut jumps = Vec::new();
                for (i, sub) in subs.iter().enumerate() {
                    if i + 1 == subs.len() {
                        self.compile(sub)?;
                    } else {
                        let split = self.push(Inst::Jmp(0))?;
                        self.compile(sub)?;
                        jumps.push(self.push(Inst::Jmp(0))?);
                        let next = self.next();
                        self.patch(split, Inst::Split(split + 1, next));
                    }
                }
                let end = self.next();
                for j in jumps {
                    self.patch(j, Inst::Jmp(end));
                }
            }
            Kind::Repeat { op, sub, .. } => match *op {
                RepeatOp::Star => self.star(sub)?,
                RepeatOp::Plus => {
                    let start = self.next();
                    self.compile(sub)?;
                    let split = self.push(Inst::Jmp(0))?;
                    self.patch(split, Inst::Split(start, split + 1));
                }
                RepeatOp::Quest => self.quest(sub)?,
                RepeatOp::Count { min, max } => {
                    for _ in 0..min {
                        self.compile(sub)?;
                    }
                    match max {
                        None => self.star(sub)?,
                        Some(max) => {
                            for _ in min..max {
                                self.quest(sub)?;
                            }
                        }
                    }
                }
            },
        }
        Some(())
    }

    fn star(&mut self, sub: &'n Node) -> Option<()> {
        let split = self.push(Inst::Jmp(0))?;
        self.compile(sub)?;
        self.push(Inst::Jmp(split))?;
        let end = self.next();
        self.patch(split, Inst::Split(split + 1, end));
        Some(())
    }

    fn quest(&mut self, sub: &'n Node) -> Option<()> {
        let split = self.push(Inst::Jmp(0))?;
        self.compile(sub)?;
        let end = self.next();
        self.patch(split, Inst::Split(split + 1, end));
        Some(())
    }

    /// Thompson's simulation: the set of live threads, advanced one character at a time, with a
    /// new thread started at every position (an unanchored search).
    fn run(&self, text: &str) -> Option<bool> {
        let chars: Vec<char> = text.chars().collect();
        let mut undecided = false;
        let mut current = Threads::new(self.insts.len());
        let mut next = Threads::new(self.insts.len());
        for at in 0..=chars.len() {
            let prev = at.checked_sub(1).map(|i| chars[i]);
            let here = chars.get(at).copied();
            self.add(&mut current, 0, prev, here);
            for &pc in &current.list {
                match &self.insts[pc] {
                    Inst::Match => return Some(true),
                    Inst::Char(node) => match here.map(|c| accepts(node, c)) {
                        Some(Some(true)) => {
                            let after = chars.get(at + 1).copied();
                            self.add(&mut next, pc + 1, here, after);
                        }
                        Some(None) => undecided = true,
                        Some(Some(false)) | None => {}
                    },
                    // Followed in `add`.
                    Inst::Assert(_) | Inst::Split(..) | Inst::Jmp(_) => {}
                }
            }
            std::mem::swap(&mut current, &mut next);
            next.clear();
        }
        if undecided { None } else { Some(false) }
    }

    /// Adds `pc` and what it reaches without consuming a character (between `prev` and `here`).
    fn add(&self, threads: &mut Threads, pc: usize, prev: Option<char>, here: Option<char>) {
        let mut stack = vec![pc];
        while let Some(pc) = stack.pop() {
            if !threads.insert(pc) {
                continue;
            }
            match &self.insts[pc] {
                Inst::Jmp(to) => stack.push(*to),
                Inst::Split(a, b) => {
                    stack.push(*b);
                    stack.push(*a);
                }
                Inst::Assert(kind) => {
                    if holds(kind, prev, here) {
                        stack.push(pc + 1);
                    }
                }
                Inst::Char(_) | Inst::Match => {}
            }
        }
    }
}

/// A sparse set of program counters, in insertion order.
struct Threads {
    seen: Vec<bool>,
    list: Vec<usize>,
}

impl Threads {
    fn new(n: usize) -> Self {
        Self {
            seen: vec![false; n],
            list: Vec::new(),
        }
    }

    fn insert(&mut self, pc: usize) -> bool {
        if self.seen[pc] {
            return false;
        }
        self.seen[pc] = true;
        self.list.push(pc);
        true
    }

    fn clear(&mut self) {
        for &pc in &self.list {
            self.seen[pc] = false;
        }
        self.list.clear();
    }
}

fn is_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn holds(kind: &Kind, prev: Option<char>, here: Option<char>) -> bool {
    match kind {
        Kind::BeginText => prev.is_none(),
        Kind::EndText => here.is_none(),
        Kind::BeginLine => matches!(prev, None | Some('\n')),
        Kind::EndLine => matches!(here, None | Some('\n')),
        Kind::WordBoundary => is_word(prev) != is_word(here),
        Kind::NoWordBoundary => is_word(prev) == is_word(here),
        _ => unreachable!("only assertions are compiled to Assert"),
    }
}

/// The characters whose simple case folding orbit is known here: all of ASCII's, with the two
/// non-ASCII characters in them.
fn orbit(c: char) -> Option<&'static [char]> {
    const fn pair(c: u8) -> [char; 2] {
        [
            c.to_ascii_lowercase() as char,
            c.to_ascii_uppercase() as char,
        ]
    }
    static LETTERS: [[char; 2]; 26] = {
        let mut out = [['\0'; 2]; 26];
        let mut i = 0;
        while i < 26 {
            out[i] = pair(b'a' + i as u8);
            i += 1;
        }
        out
    };
    static K: [char; 3] = ['k', 'K', KELVIN];
    static S: [char; 3] = ['s', 'S', LONG_S];
    Some(match c {
        'k' | 'K' | KELVIN => &K,
        's' | 'S' | LONG_S => &S,
        'a'..='z' => &LETTERS[c as usize - 'a' as usize],
        'A'..='Z' => &LETTERS[c as usize - 'A' as usize],
        _ if c.is_ascii() => std::slice::from_ref(ascii_self(c)),
        _ => return None,
    })
}

/// A `'static` reference to an ASCII character that folds to itself alone.
fn ascii_self(c: char) -> &'static char {
    static ASCII: [char; 128] = {
        let mut out = ['\0'; 128];
        let mut i = 0;
        while i < 128 {
            out[i] = i as u8 as char;
            i += 1;
        }
        out
    };
    &ASCII[c as usize]
}

/// Whether the character-consuming `node` accepts `c`.
fn accepts(node: &Node, c: char) -> Option<bool> {
    match &node.kind {
        Kind::AnyChar => Some(true),
        Kind::AnyCharNotNl => Some(c != '\n'),
        Kind::Literal { c: lit, fold } => {
            let lit = char::from_u32(*lit)?;
            if lit == c {
                return Some(true);
            }
            if !fold {
                return Some(false);
            }
            match (orbit(c), orbit(lit)) {
                (Some(o), _) | (_, Some(o)) => Some(o.contains(&lit) && o.contains(&c)),
                (None, None) => None,
            }
        }
        Kind::Class(class) => class_accepts(class, c),
        _ => unreachable!("only literals, classes and dots are compiled to Char"),
    }
}

/// Go folds each part of a class (closes it under simple folding) before negating the part and
/// then the class (`appendFoldedClass`, `appendNegatedClass` in `parse.go`).
fn class_accepts(class: &Class, c: char) -> Option<bool> {
    let candidates: &[char] = if class.fold {
        match orbit(c) {
            Some(o) => o,
            None => std::slice::from_ref(&c),
        }
    } else {
        std::slice::from_ref(&c)
    };
    // With folding and an orbit not known here, only a hit on `c` itself decides.
    let complete = !class.fold || orbit(c).is_some();
    let mut undecided = false;
    for item in &class.items {
        match item_accepts(item, candidates, complete) {
            Some(true) => return Some(!class.negated),
            Some(false) => {}
            None => undecided = true,
        }
    }
    if undecided { None } else { Some(class.negated) }
}

/// Whether a part of a class holds one of `candidates` (`c` and the rest of its fold orbit;
/// `complete` when that is the whole orbit).
fn item_accepts(item: &ClassItem, candidates: &[char], complete: bool) -> Option<bool> {
    let (hit, negated) = match *item {
        ClassItem::Range(lo, hi) => (
            Some(
                candidates
                    .iter()
                    .any(|&c| (lo..=hi).contains(&u32::from(c))),
            ),
            false,
        ),
        ClassItem::Ascii { ranges, negated } => (
            Some(candidates.iter().any(|&c| {
                c.is_ascii()
                    && ranges
                        .iter()
                        .any(|&(lo, hi)| (lo..=hi).contains(&(c as u8)))
            })),
            negated,
        ),
        ClassItem::Unicode { table, negated } => {
            let mut hit = Some(false);
            for &c in candidates {
                match in_table(table, c) {
                    Some(true) => {
                        hit = Some(true);
                        break;
                    }
                    Some(false) => {}
                    None => hit = None,
                }
            }
            (hit, negated)
        }
    };
    match hit {
        Some(true) => Some(!negated),
        // A miss on a partial orbit decides nothing: another member may be in the part.
        Some(false) if complete => Some(negated),
        _ => None,
    }
}

/// Membership in a Unicode class, as the `regex` crate's tables (which `crdkit-regexp` uses)
/// define it; scripts only for ASCII.
fn in_table(table: &Table, c: char) -> Option<bool> {
    let name = table.regex;
    if let Some(script) = name.strip_prefix("sc=") {
        if !c.is_ascii() {
            return None;
        }
        return Some(match script {
            "Latin" => c.is_ascii_alphabetic(),
            "Common" => !c.is_ascii_alphabetic(),
            _ => false,
        });
    }
    let gc = c.general_category();
    Some(match name {
        "Any" => true,
        "ASCII" => c.is_ascii(),
        "Assigned" => gc != Gc::Unassigned,
        _ => {
            let code = name.strip_prefix("gc=")?;
            in_category(code, c)?
        }
    })
}

fn in_category(code: &str, c: char) -> Option<bool> {
    let gc = c.general_category();
    let group = c.general_category_group();
    Some(match code {
        "L" => group == Group::Letter,
        "M" => group == Group::Mark,
        "N" => group == Group::Number,
        "P" => group == Group::Punctuation,
        "S" => group == Group::Symbol,
        "Z" => group == Group::Separator,
        "C" => group == Group::Other,
        "LC" => matches!(
            gc,
            Gc::UppercaseLetter | Gc::LowercaseLetter | Gc::TitlecaseLetter
        ),
        _ => {
            let want = match code {
                "Lu" => Gc::UppercaseLetter,
                "Ll" => Gc::LowercaseLetter,
                "Lt" => Gc::TitlecaseLetter,
                "Lm" => Gc::ModifierLetter,
                "Lo" => Gc::OtherLetter,
                "Mn" => Gc::NonspacingMark,
                "Mc" => Gc::SpacingMark,
                "Me" => Gc::EnclosingMark,
                "Nd" => Gc::DecimalNumber,
                "Nl" => Gc::LetterNumber,
                "No" => Gc::OtherNumber,
                "Pc" => Gc::ConnectorPunctuation,
                "Pd" => Gc::DashPunctuation,
                "Ps" => Gc::OpenPunctuation,
                "Pe" => Gc::ClosePunctuation,
                "Pi" => Gc::InitialPunctuation,
                "Pf" => Gc::FinalPunctuation,
                "Po" => Gc::OtherPunctuation,
                "Sm" => Gc::MathSymbol,
                "Sc" => Gc::CurrencySymbol,
                "Sk" => Gc::ModifierSymbol,
                "So" => Gc::OtherSymbol,
                "Zs" => Gc::SpaceSeparator,
                "Zl" => Gc::LineSeparator,
                "Zp" => Gc::ParagraphSeparator,
                "Cc" => Gc::Control,
                "Cf" => Gc::Format,
                "Cs" => Gc::Surrogate,
                "Co" => Gc::PrivateUse,
                "Cn" => Gc::Unassigned,
                _ => return None,
            };
            gc == want
        }
    })
}
