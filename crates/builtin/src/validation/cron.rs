//! CronJob schedules as `github.com/robfig/cron/v3`'s `ParseStandard` reads them: five fields
//! (minute, hour, day of month, month, day of week) of comma-separated ranges, steps and names,
//! or a descriptor (`@daily`, `@every 1h`), optionally after `TZ=`/`CRON_TZ=`; with its error
//! messages. Time zone names after `TZ=` are not looked up.

/// `(min, max, names)` of each field.
pub(crate) const BOUNDS: [(u32, u32, &[&str]); 5] = [
    (0, 59, &[]),
    (0, 23, &[]),
    (1, 31, &[]),
    (
        1,
        12,
        &[
            "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
        ],
    ),
    (0, 6, &["sun", "mon", "tue", "wed", "thu", "fri", "sat"]),
];

/// The error `cron.ParseStandard` gives for `spec`, if any.
pub(crate) fn parse_standard(spec: &str) -> Result<(), String> {
    if spec.is_empty() {
        return Err("empty spec string".to_owned());
    }
    let mut spec = spec;
    if spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=") {
        let Some(i) = spec.find(' ') else {
            return Err(format!(
                "provided bad location {}: unknown time zone",
                &spec[spec.find('=').unwrap_or(0) + 1..]
            ));
        };
        spec = spec[i..].trim();
    }
    if spec.starts_with('@') {
        return descriptor(spec);
    }
    let fields: Vec<&str> = spec.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(format!(
            "expected exactly 5 fields, found {}: [{}]",
            fields.len(),
            fields.join(" ")
        ));
    }
    for (f, (min, max, names)) in fields.iter().zip(BOUNDS) {
        for expr in f.split(',').filter(|e| !e.is_empty()) {
            range(expr, min, max, names)?;
        }
    }
    Ok(())
}

pub(crate) fn descriptor(d: &str) -> Result<(), String> {
    match d {
        "@yearly" | "@annually" | "@monthly" | "@weekly" | "@daily" | "@midnight" | "@hourly" => {
            Ok(())
        }
        _ => match d.strip_prefix("@every ") {
            Some(dur) if go_duration(dur) => Ok(()),
            Some(dur) => Err(format!(
                "failed to parse duration {d}: time: invalid duration {dur:?}"
            )),
            None => Err(format!("unrecognized descriptor: {d}")),
        },
    }
}

/// A Go duration: a signed sequence of decimal numbers with units (`1h30m`, `1.5s`).
pub(crate) fn go_duration(s: &str) -> bool {
    let s = s.strip_prefix(['+', '-']).unwrap_or(s);
    if s == "0" {
        return true;
    }
    let mut rest = s;
    if rest.is_empty() {
        return false;
    }
    while !rest.is_empty() {
        let n = rest
            .bytes()
            .take_while(|b| b.is_ascii_digit() || *b == b'.')
            .count();
        if n == 0 || rest[..n] == *"." {
            return false;
        }
        rest = &rest[n..];
        let unit = ["ns", "us", "µs", "μs", "ms", "s", "m", "h"]
            .iter()
            .filter(|u| rest.starts_with(**u))
            .max_by_key(|u| u.len());
        match unit {
            Some(u) => rest = &rest[u.len()..],
            None => return false,
        }
    }
    true
}

/// `strconv.Atoi` as robfig reports it.
pub(crate) fn int(expr: &str) -> Result<u32, String> {
    match expr.parse::<i64>() {
        Ok(n) if n < 0 => Err(format!("negative number ({n}) not allowed: {expr}")),
        Ok(n) => Ok(u32::try_from(n).unwrap_or(u32::MAX)),
        Err(_) => {
            let why = if !expr.is_empty()
                && expr
                    .trim_start_matches(['+', '-'])
                    .bytes()
                    .all(|b| b.is_ascii_digit())
                && expr.len() > 1
            {
                "value out of range"
            } else {
                "invalid syntax"
            };
            Err(format!(
                "failed to parse int from {expr}: strconv.Atoi: parsing {expr:?}: {why}"
            ))
        }
    }
}

pub(crate) fn int_or_name(expr: &str, names: &[&str], min: u32) -> Result<u32, String> {
    let lower = expr.to_lowercase();
    match names.iter().position(|n| *n == lower) {
        Some(i) => Ok(u32::try_from(i).unwrap_or(0) + min),
        None => int(expr),
    }
}

/// `getRange`.
pub(crate) fn range(expr: &str, min: u32, max: u32, names: &[&str]) -> Result<(), String> {
    let range_and_step: Vec<&str> = expr.split('/').collect();
    let low_high: Vec<&str> = range_and_step[0].split('-').collect();
    let (start, mut end) = if low_high[0] == "*" || low_high[0] == "?" {
        (min, max)
    } else {
        let start = int_or_name(low_high[0], names, min)?;
        let end = match low_high.len() {
            1 => start,
            2 => int_or_name(low_high[1], names, min)?,
            _ => return Err(format!("too many hyphens: {expr}")),
        };
        (start, end)
    };
    let step = match range_and_step.len() {
        1 => 1,
        2 => {
            let step = int(range_and_step[1])?;
            if low_high.len() == 1 {
                end = max;
            }
            step
        }
        _ => return Err(format!("too many slashes: {expr}")),
    };
    if start < min {
        return Err(format!(
            "beginning of range ({start}) below minimum ({min}): {expr}"
        ));
    }
    if end > max {
        return Err(format!(
            "end of range ({end}) above maximum ({max}): {expr}"
        ));
    }
    if start > end {
        return Err(format!(
            "beginning of range ({start}) beyond end of range ({end}): {expr}"
        ));
    }
    if step == 0 {
        return Err(format!("step of range should be a positive number: {expr}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::parse_standard;

    #[test]
    fn robfig_messages() {
        for ok in [
            "*/5 * * * *",
            "0 0 * * *",
            "5 0 * * MON-FRI",
            "@hourly",
            "@every 1h30m",
            "0 0 1 jan *",
            "CRON_TZ=UTC 0 0 * * *",
        ] {
            assert_eq!(parse_standard(ok), Ok(()), "{ok}");
        }
        for (bad, want) in [
            ("* * * *", "expected exactly 5 fields, found 4: [* * * *]"),
            ("61 * * * *", "end of range (61) above maximum (59): 61"),
            ("* * 0 * *", "beginning of range (0) below minimum (1): 0"),
            (
                "5-1 * * * *",
                "beginning of range (5) beyond end of range (1): 5-1",
            ),
            (
                "*/0 * * * *",
                "step of range should be a positive number: */0",
            ),
            (
                "x * * * *",
                "failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax",
            ),
            ("@sometimes", "unrecognized descriptor: @sometimes"),
            (
                "@every 1y",
                "failed to parse duration @every 1y: time: invalid duration \"1y\"",
            ),
            ("", "empty spec string"),
        ] {
            assert_eq!(parse_standard(bad), Err(want.to_owned()), "{bad}");
        }
    }
}
