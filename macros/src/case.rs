//! serde's `rename_all` rules, applied as serde applies them.

use std::fmt::Write as _;

/// A `rename_all` rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

pub const RULES: &[(&str, RenameRule)] = &[
    ("lowercase", RenameRule::Lower),
    ("UPPERCASE", RenameRule::Upper),
    ("PascalCase", RenameRule::Pascal),
    ("camelCase", RenameRule::Camel),
    ("snake_case", RenameRule::Snake),
    ("SCREAMING_SNAKE_CASE", RenameRule::ScreamingSnake),
    ("kebab-case", RenameRule::Kebab),
    ("SCREAMING-KEBAB-CASE", RenameRule::ScreamingKebab),
];

impl RenameRule {
    pub fn parse(s: &str) -> Option<RenameRule> {
        RULES.iter().find(|(n, _)| *n == s).map(|(_, r)| *r)
    }

    /// Renames a variant written in `PascalCase`.
    pub fn variant(self, v: &str) -> String {
        match self {
            RenameRule::Pascal => v.to_owned(),
            RenameRule::Lower => v.to_ascii_lowercase(),
            RenameRule::Upper => v.to_ascii_uppercase(),
            RenameRule::Camel => {
                let mut c = v.chars();
                c.next()
                    .map(|f| f.to_ascii_lowercase().to_string() + c.as_str())
                    .unwrap_or_default()
            }
            RenameRule::Snake => {
                let mut out = String::new();
                for (i, ch) in v.char_indices() {
                    if i > 0 && ch.is_uppercase() {
                        out.push('_');
                    }
                    let _ = write!(out, "{}", ch.to_ascii_lowercase());
                }
                out
            }
            RenameRule::ScreamingSnake => RenameRule::Snake.variant(v).to_ascii_uppercase(),
            RenameRule::Kebab => RenameRule::Snake.variant(v).replace('_', "-"),
            RenameRule::ScreamingKebab => RenameRule::ScreamingSnake.variant(v).replace('_', "-"),
        }
    }

    /// Renames a field written in `snake_case`.
    pub fn field(self, f: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => f.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => f.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut out = String::new();
                let mut upper = true;
                for ch in f.chars() {
                    if ch == '_' {
                        upper = true;
                    } else if upper {
                        out.push(ch.to_ascii_uppercase());
                        upper = false;
                    } else {
                        out.push(ch);
                    }
                }
                out
            }
            RenameRule::Camel => {
                let p = RenameRule::Pascal.field(f);
                let mut c = p.chars();
                c.next()
                    .map(|f| f.to_ascii_lowercase().to_string() + c.as_str())
                    .unwrap_or_default()
            }
            RenameRule::Kebab => f.replace('_', "-"),
            RenameRule::ScreamingKebab => f.to_ascii_uppercase().replace('_', "-"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::RenameRule::*;

    #[test]
    fn renames_like_serde() {
        assert_eq!(Camel.field("cron_spec"), "cronSpec");
        assert_eq!(Pascal.field("cron_spec"), "CronSpec");
        assert_eq!(ScreamingKebab.field("a_b"), "A-B");
        assert_eq!(Snake.variant("VeryTasty"), "very_tasty");
        assert_eq!(Camel.variant("VeryTasty"), "veryTasty");
        assert_eq!(Kebab.variant("VeryTasty"), "very-tasty");
        assert_eq!(Lower.variant("VeryTasty"), "verytasty");
    }
}
