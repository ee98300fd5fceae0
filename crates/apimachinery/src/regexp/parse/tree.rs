//! The parse tree: what matching needs of a pattern, with each node's height and compiled size
//! as Go's parser computes them for its limits (`calcHeight`, `calcSize` in `parse.go`).

use crate::regexp::unicode::Table;

/// A parsed pattern.
#[derive(Debug)]
pub(crate) struct Node {
    pub kind: Kind,
    /// Height of the tree under this node (Go `calcHeight`).
    pub(super) height: u32,
    /// Compiled size of this node (Go `calcSize`).
    pub(super) size: i64,
}

#[derive(Debug)]
pub(crate) enum Kind {
    /// Matches the empty string.
    Empty,
    /// A Go rune: a surrogate (`\x{D800}`) is one, and matches nothing in valid UTF-8.
    Literal {
        c: u32,
        fold: bool,
    },
    Class(Box<Class>),
    /// `.` under `(?s)`.
    AnyChar,
    /// `.`.
    AnyCharNotNl,
    /// `^` under `(?m)`.
    BeginLine,
    /// `$` under `(?m)`.
    EndLine,
    /// `^`, `\A`.
    BeginText,
    /// `$`, `\z`.
    EndText,
    /// `\b` (ASCII).
    WordBoundary,
    /// `\B` (ASCII).
    NoWordBoundary,
    /// A numbered group; Go's names do not change matching.
    Capture(Box<Node>),
    Repeat {
        op: RepeatOp,
        greedy: bool,
        sub: Box<Node>,
    },
    Concat(Vec<Node>),
    Alternate(Vec<Node>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RepeatOp {
    Star,
    Plus,
    Quest,
    /// `{min}`, `{min,}` (`max` `None`), `{min,max}`.
    Count {
        min: u32,
        max: Option<u32>,
    },
}

/// A character class: `[...]`, or one of `\d`, `\pL`, `[:alpha:]` standing alone.
#[derive(Debug)]
pub(crate) struct Class {
    pub negated: bool,
    /// Case folded (`(?i)`): each item and the whole class are closed under simple folding.
    pub fold: bool,
    pub items: Vec<ClassItem>,
}

#[derive(Debug)]
pub(crate) enum ClassItem {
    /// Go runes, surrogates included.
    Range(u32, u32),
    /// A Perl (`\d`) or POSIX (`[:alpha:]`) group: ASCII ranges (Go `perl_groups.go`).
    Ascii {
        ranges: &'static [(u8, u8)],
        negated: bool,
    },
    /// `\p{Greek}`, `\P{Lu}`.
    Unicode {
        table: &'static Table,
        negated: bool,
    },
}

impl ClassItem {
    /// Runes Go counts for the item (`len(re.Rune)`), before merging with its neighbours.
    pub(super) fn runes(&self) -> u64 {
        match self {
            Self::Range(..) => 2,
            Self::Ascii { ranges, negated } => 2 * (ranges.len() as u64 + u64::from(*negated)),
            Self::Unicode { table, .. } => u64::from(table.runes),
        }
    }
}

impl Node {
    /// Height of the tree (Go `calcHeight`).
    pub(crate) fn height(&self) -> u32 {
        self.height
    }
}

pub(super) fn leaf(kind: Kind) -> Node {
    Node {
        kind,
        height: 1,
        size: 1,
    }
}
