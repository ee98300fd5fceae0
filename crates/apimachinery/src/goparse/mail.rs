//! `net/mail.ParseAddress`.

/// `mail.ParseAddress` succeeds with a non-empty address: an addr-spec, or a display name and an
/// addr-spec in angle brackets.
pub fn parse_mail_address(s: &str) -> bool {
    let s = s.trim_matches(|c| c == ' ' || c == '\t');
    if let Some(inner) = s.strip_suffix('>') {
        let Some(lt) = inner.rfind('<') else {
            return false;
        };
        let name = inner[..lt].trim_matches(|c| c == ' ' || c == '\t');
        return phrase_ok(name) && addr_spec(inner[lt + 1..].trim());
    }
    addr_spec(s)
}

fn is_atext(c: char) -> bool {
    !c.is_ascii() || (c.is_ascii_graphic() && !"()<>[]:;@\\,\".".contains(c))
}

fn dot_atom(s: &str) -> bool {
    !s.is_empty()
        && s.split('.')
            .all(|a| !a.is_empty() && a.chars().all(is_atext))
}

fn quoted(s: &str) -> bool {
    let Some(inner) = s.strip_prefix('"').and_then(|s| s.strip_suffix('"')) else {
        return false;
    };
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.next().is_none() => return false,
            '"' => return false,
            c if c.is_ascii_control() && c != '\t' => return false,
            _ => {}
        }
    }
    true
}

fn phrase_ok(name: &str) -> bool {
    name.is_empty()
        || quoted(name)
        || name
            .split([' ', '\t'])
            .filter(|w| !w.is_empty())
            .all(|w| w.chars().all(|c| is_atext(c) || c == '.'))
}

fn addr_spec(s: &str) -> bool {
    let Some(at) = s.rfind('@') else { return false };
    let (local, domain) = (&s[..at], &s[at + 1..]);
    (dot_atom(local) || quoted(local))
        && (dot_atom(domain)
            || domain.starts_with('[') && domain.ends_with(']') && domain.len() >= 2)
}
