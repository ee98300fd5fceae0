//! `kubernetes.NamedFormat`: mirrors apiserver `pkg/cel/format.go` and the formats of
//! `library/format.go`, with apimachinery's name validations (shared with
//! `crdkit_apimachinery::names`).

use crate::value::strfmt::{parse_full_date, parse_strfmt_datetime};

/// A named format.
#[derive(Debug)]
pub struct NamedFormat {
    /// The name used in CEL (`dns1123Label`).
    pub name: &'static str,
    /// `MaxRegexSize`, which prices `validate`.
    pub max_regex_size: u64,
    pub(crate) validate: fn(&str) -> Vec<String>,
}

impl PartialEq for NamedFormat {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

fn mask_trailing_dash(s: &str) -> String {
    match s.strip_suffix('-') {
        Some(r) if s.len() > 1 => format!("{r}a"),
        _ => s.to_string(),
    }
}

fn one(ok: bool, msg: &str) -> Vec<String> {
    if ok {
        Vec::new()
    } else {
        vec![msg.to_string()]
    }
}

fn is_uuid(s: &str) -> bool {
    let hex: String = s.chars().filter(|c| *c != '-').collect();
    let dashes = s.len() - hex.len();
    hex.len() == 32 && hex.chars().all(|c| c.is_ascii_hexdigit()) && (dashes == 0 || dashes == 4)
}

const UUID_PATTERN: &str = "(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$";
const DATE_TIME_PATTERN: &str =
    "^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$";

pub(crate) static FORMATS: &[NamedFormat] = &[
    NamedFormat {
        name: "dns1123Label",
        max_regex_size: 30,
        validate: crdkit_apimachinery::names::dns1123_label,
    },
    NamedFormat {
        name: "dns1123Subdomain",
        max_regex_size: 60,
        validate: crdkit_apimachinery::names::dns1123_subdomain,
    },
    NamedFormat {
        name: "dns1035Label",
        max_regex_size: 30,
        validate: crdkit_apimachinery::names::dns1035_label,
    },
    NamedFormat {
        name: "qualifiedName",
        max_regex_size: 60,
        validate: crdkit_apimachinery::names::label_key,
    },
    NamedFormat {
        name: "dns1123LabelPrefix",
        max_regex_size: 30,
        validate: |s| crdkit_apimachinery::names::dns1123_label(&mask_trailing_dash(s)),
    },
    NamedFormat {
        name: "dns1123SubdomainPrefix",
        max_regex_size: 60,
        validate: |s| crdkit_apimachinery::names::dns1123_subdomain(&mask_trailing_dash(s)),
    },
    NamedFormat {
        name: "dns1035LabelPrefix",
        max_regex_size: 30,
        validate: |s| crdkit_apimachinery::names::dns1035_label(&mask_trailing_dash(s)),
    },
    NamedFormat {
        name: "labelValue",
        max_regex_size: 40,
        validate: crdkit_apimachinery::names::label_value,
    },
    NamedFormat {
        name: "uri",
        max_regex_size: 1103,
        validate: |s| super::url::parse(s, true).err().into_iter().collect(),
    },
    NamedFormat {
        name: "uuid",
        max_regex_size: UUID_PATTERN.len() as u64,
        validate: |s| one(is_uuid(s), "does not match the UUID format"),
    },
    NamedFormat {
        name: "byte",
        max_regex_size: 84,
        validate: |s| {
            one(
                crdkit_apimachinery::gobase64::decode(s).is_ok(),
                "invalid base64",
            )
        },
    },
    NamedFormat {
        name: "date",
        max_regex_size: DATE_TIME_PATTERN.len() as u64,
        validate: |s| one(parse_full_date(s).is_some(), "invalid date"),
    },
    NamedFormat {
        name: "datetime",
        max_regex_size: DATE_TIME_PATTERN.len() as u64,
        validate: |s| one(parse_strfmt_datetime(s).is_some(), "invalid datetime"),
    },
];
