//! A message built in a fixed buffer, so `const fn`s can report what they found.
//!
//! A check that fails at compile time ends in `panic!("{}", msg.as_str())` inside the user's
//! `const _` item, which rustc prints as `error[E0080]: evaluation panicked: <msg>` at the span
//! of the attribute that asked for the check.

/// Capacity of a [`Msg`]; longer messages are cut with `...`.
pub const MSG_CAP: usize = 2048;

/// An error message from a `const fn` check.
#[derive(Clone, Copy)]
pub struct Msg {
    buf: [u8; MSG_CAP],
    len: usize,
}

impl Msg {
    /// An empty message.
    #[must_use]
    pub const fn new() -> Msg {
        Msg {
            buf: [0; MSG_CAP],
            len: 0,
        }
    }

    /// Starts a message with `s`.
    #[must_use]
    pub const fn of(s: &str) -> Msg {
        Msg::new().s(s)
    }

    /// Appends `s`, cutting at a character boundary when the buffer is full.
    #[must_use]
    pub const fn s(mut self, s: &str) -> Msg {
        let b = s.as_bytes();
        if self.len > MSG_CAP - 3 {
            // Already cut.
            return self;
        }
        let mut i = 0;
        while i < b.len() {
            // Keep room for "..." and never split a UTF-8 sequence.
            let width = utf8_width(b[i]);
            if self.len + width > MSG_CAP - 3 {
                self.buf[self.len] = b'.';
                self.buf[self.len + 1] = b'.';
                self.buf[self.len + 2] = b'.';
                self.len += 3;
                return self;
            }
            let mut k = 0;
            while k < width && i + k < b.len() {
                self.buf[self.len] = b[i + k];
                self.len += 1;
                k += 1;
            }
            i += width;
        }
        self
    }

    /// Appends `s` in backquotes.
    #[must_use]
    pub const fn code(self, s: &str) -> Msg {
        self.s("`").s(s).s("`")
    }

    /// Appends `s` in single quotes.
    #[must_use]
    pub const fn quoted(self, s: &str) -> Msg {
        self.s("'").s(s).s("'")
    }

    /// Appends a decimal integer.
    #[must_use]
    pub const fn int(self, v: i128) -> Msg {
        let mut digits = [0u8; 40];
        let mut n = if v < 0 { v.unsigned_abs() } else { v as u128 };
        let mut i = digits.len();
        loop {
            i -= 1;
            digits[i] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        if v < 0 {
            i -= 1;
            digits[i] = b'-';
        }
        let (_, tail) = digits.split_at(i);
        match core::str::from_utf8(tail) {
            Ok(s) => self.s(s),
            Err(_) => self,
        }
    }

    /// Appends a number: integral values as integers, others with up to six decimals.
    #[must_use]
    #[allow(
        clippy::cast_possible_truncation,
        clippy::cast_precision_loss,
        clippy::cast_sign_loss
    )]
    pub const fn num(self, v: f64) -> Msg {
        if v.is_nan() {
            return self.s("NaN");
        }
        if v.abs() >= 1e18 {
            return self.s(if v < 0.0 { "-1e18+" } else { "1e18+" });
        }
        let int = v as i64;
        let frac = v - int as f64;
        let mut m = if v < 0.0 && int == 0 {
            self.s("-")
        } else {
            self
        };
        m = m.int(int as i128);
        if frac == 0.0 {
            return m;
        }
        let mut scaled = (frac.abs() * 1_000_000.0 + 0.5) as u64;
        if scaled >= 1_000_000 {
            scaled = 999_999;
        }
        let mut digits = [b'0'; 6];
        let mut i = 6;
        while i > 0 {
            i -= 1;
            digits[i] = b'0' + (scaled % 10) as u8;
            scaled /= 10;
        }
        let mut end = 6;
        while end > 1 && digits[end - 1] == b'0' {
            end -= 1;
        }
        let (head, _) = digits.split_at(end);
        match core::str::from_utf8(head) {
            Ok(s) => m.s(".").s(s),
            Err(_) => m,
        }
    }

    /// The message.
    #[must_use]
    pub const fn as_str(&self) -> &str {
        let (head, _) = self.buf.split_at(self.len);
        match core::str::from_utf8(head) {
            Ok(s) => s,
            Err(_) => "<invalid message>",
        }
    }
}

impl Default for Msg {
    fn default() -> Self {
        Msg::new()
    }
}

impl core::fmt::Debug for Msg {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        core::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl core::fmt::Display for Msg {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq for Msg {
    fn eq(&self, other: &Msg) -> bool {
        self.as_str() == other.as_str()
    }
}

impl std::error::Error for Msg {}

const fn utf8_width(b: u8) -> usize {
    if b < 0x80 {
        1
    } else if b >= 0xF0 {
        4
    } else if b >= 0xE0 {
        3
    } else {
        2
    }
}

/// `a == b` for `&str` in `const fn`.
#[must_use]
pub const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_numbers() {
        assert_eq!(Msg::new().int(-42).as_str(), "-42");
        assert_eq!(Msg::new().num(10.0).as_str(), "10");
        assert_eq!(Msg::new().num(-0.5).as_str(), "-0.5");
        assert_eq!(Msg::new().num(2.25).as_str(), "2.25");
    }

    #[test]
    fn appends_nothing_once_cut() {
        let long = "x".repeat(MSG_CAP);
        let m = Msg::of(&long).s("more").s("and more");
        assert!(m.as_str().ends_with("..."));
        assert_eq!(m.as_str().len(), MSG_CAP);
    }

    #[test]
    fn truncates_on_char_boundary() {
        let long = "é".repeat(MSG_CAP);
        let m = Msg::of(&long);
        assert!(m.as_str().ends_with("..."));
        assert!(m.as_str().len() <= MSG_CAP);
    }
}
