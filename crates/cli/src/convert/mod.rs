//! `crdgen convert --to VERSION`: custom objects as the API server returns them at another
//! version of their CRD: decoded at the version they are stored at (pruned, defaulted),
//! converted by the CRD's strategy, and coerced to the target version's schema
//! ([`crdkit_apiextensions::codec`]). With the `None` strategy only `apiVersion` changes (and
//! what the target's schema does not specify is pruned); with `Webhook`, the webhook is called
//! with a `ConversionReview` as the API server calls it ([`review`]; the HTTP client is the
//! `webhook` feature of this crate).
//!
//! Objects of kinds no CRD defines, and CRDs in the input, are written out unchanged (CRDs are
//! also known to the objects after them), so that a whole bundle converts in one run.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;

use serde_json::Value;

use crate::crds::{is_crd, read_crd, read_crds};
use crate::exit::{Failure, INVALID, OK};
use crate::help;
use crate::load::{self, Document};
use crate::output::Output;
use crdkit_apiextensions::codec::{Codec, ConvertError};
use crdkit_schema::crd::CustomResourceDefinition;

#[cfg(feature = "webhook")]
mod http;
mod review;

/// The options of a run.
struct Options {
    /// `VERSION` or `GROUP/VERSION`.
    to: String,
    output: Output,
    crd_files: Vec<PathBuf>,
    webhook_url: Option<String>,
    ca_bundle: Option<PathBuf>,
    files: Vec<PathBuf>,
}

/// The options, or `None` for `--help`.
fn parse_args(args: Vec<OsString>) -> Result<Option<Options>, Failure> {
    use lexopt::prelude::*;
    let mut parser = lexopt::Parser::from_args(args);
    let mut to = None;
    let mut o = Options {
        to: String::new(),
        output: Output::Yaml,
        crd_files: Vec::new(),
        webhook_url: None,
        ca_bundle: None,
        files: Vec::new(),
    };
    while let Some(arg) = parser.next()? {
        match arg {
            Short('h') | Long("help") => return Ok(None),
            Long("to") => to = Some(parser.value()?.string()?),
            Long("output") | Short('o') => {
                o.output = Output::parse(parser.value()?, &[Output::Yaml, Output::Json])?;
            }
            Long("crd") => o.crd_files.push(parser.value()?.into()),
            Long("webhook-url") => o.webhook_url = Some(parser.value()?.string()?),
            Long("ca-bundle") => o.ca_bundle = Some(parser.value()?.into()),
            Value(f) => o.files.push(f.into()),
            _ => return Err(arg.unexpected().into()),
        }
    }
    o.to = to.filter(|t| !t.is_empty()).ok_or_else(|| {
        Failure::Usage("`crdgen convert` needs the target version: `--to VERSION`".to_owned())
    })?;
    if o.files.is_empty() {
        return Err(Failure::Usage(
            "`crdgen convert` needs at least one object file".to_owned(),
        ));
    }
    Ok(Some(o))
}

/// One document of the input: written out as it is, or converted by the CRD at an index.
enum Item {
    Keep(Value),
    Convert(usize),
}

/// Runs `crdgen convert --to VERSION [--crd CRD.yaml|DIR]... [--webhook-url URL]
/// [--ca-bundle CA.pem] [--output yaml|json] OBJECT.yaml|DIR...`; without `--crd`, the objects'
/// CRDs are `builtin` (and those in the input). Writes every object, converted or not, in input
/// order; returns [`OK`], or [`INVALID`] when an object could not be converted (the error on
/// the standard error, the object left out).
///
/// # Errors
/// [`Failure::Usage`] for bad arguments (a target version a CRD does not serve), [`Failure::Input`]
/// for unreadable files, [`Failure::Io`] when reading or writing fails.
pub(crate) fn run(
    args: Vec<OsString>,
    builtin: &[CustomResourceDefinition],
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<u8, Failure> {
    let Some(o) = parse_args(args)? else {
        help::write(out, Some("convert"))?;
        return Ok(OK);
    };
    let mut crds: Vec<(String, CustomResourceDefinition)> = Vec::new();
    if o.crd_files.is_empty() {
        crds.extend(builtin.iter().map(|c| ("<built-in>".to_owned(), c.clone())));
    }
    for given in &o.crd_files {
        let before = crds.len();
        crds.extend(read_crds(given, err)?);
        if crds.len() == before {
            return Err(Failure::Input(format!(
                "{}: no CustomResourceDefinition",
                given.display()
            )));
        }
    }
    let mut docs: Vec<Document> = Vec::new();
    for f in load::expand(&o.files)? {
        docs.extend(load::load(&f)?);
    }
    let mut items = Vec::with_capacity(docs.len());
    for doc in &docs {
        if is_crd(&doc.value) {
            crds.push((doc.position(), read_crd(doc)?));
            items.push(Item::Keep(doc.value.clone()));
        } else if let Some(c) = crd_of(&crds, &doc.value) {
            items.push(Item::Convert(c));
        } else {
            items.push(Item::Keep(doc.value.clone()));
        }
    }
    // Every CRD used must serve the target (checked before anything is written).
    let mut targets: Vec<Option<String>> = vec![None; crds.len()];
    for item in &items {
        if let Item::Convert(c) = item
            && targets[*c].is_none()
        {
            targets[*c] = Some(target_version(&o.to, &crds[*c])?.unwrap_or_default());
        }
    }
    let mut results: Vec<Option<Result<Value, String>>> = items
        .iter()
        .map(|item| match item {
            Item::Keep(v) => Some(Ok(v.clone())),
            Item::Convert(_) => None,
        })
        .collect();
    for (c, target) in targets.iter().enumerate() {
        // An empty target: another group's version was asked for; the objects stay as they are.
        let Some(target) = target else { continue };
        let members: Vec<usize> = items
            .iter()
            .enumerate()
            .filter(|(_, item)| matches!(item, Item::Convert(i) if *i == c))
            .map(|(i, _)| i)
            .collect();
        if target.is_empty() {
            for i in members {
                results[i] = Some(Ok(docs[i].value.clone()));
            }
            continue;
        }
        let objects: Vec<Value> = members.iter().map(|&i| docs[i].value.clone()).collect();
        let converted = convert_all(&o, &crds[c], target, objects)?;
        for (i, r) in members.into_iter().zip(converted) {
            results[i] = Some(r);
        }
    }
    let mut code = OK;
    let mut values = Vec::new();
    for (doc, result) in docs.iter().zip(results) {
        match result {
            Some(Ok(v)) => values.push(v),
            Some(Err(message)) => {
                code = INVALID;
                let _ = writeln!(err, "crdgen: {}: {message}", doc.position());
            }
            None => {}
        }
    }
    match o.output {
        Output::Json => {
            for v in &values {
                writeln!(out, "{v}")?;
            }
        }
        _ => out.write_all(crdkit_schema::yaml::to_string_multi(&values).as_bytes())?,
    }
    Ok(code)
}

/// The CRD (the last given) of an object's group and kind.
fn crd_of(crds: &[(String, CustomResourceDefinition)], obj: &Value) -> Option<usize> {
    let text = |k: &str| obj.get(k).and_then(Value::as_str).unwrap_or_default();
    let group = text("apiVersion").rsplit_once('/').map_or("", |(g, _)| g);
    crds.iter()
        .rposition(|(_, c)| c.spec.group == group && c.spec.names.kind == text("kind"))
}

/// The version `--to` names in `crd` (`None`: it names another group's version).
///
/// # Errors
/// [`Failure::Usage`] when `crd` has no such version or does not serve it.
fn target_version(
    to: &str,
    crd: &(String, CustomResourceDefinition),
) -> Result<Option<String>, Failure> {
    let (position, crd) = crd;
    let version = match to.rsplit_once('/') {
        Some((group, _)) if group != crd.spec.group => return Ok(None),
        Some((_, v)) => v,
        None => to,
    };
    let name = crd.metadata.name.as_deref().unwrap_or_default();
    let served = crdkit_apiextensions::versions::served_versions(crd).join(", ");
    match crdkit_apiextensions::versions::version(crd, version) {
        Some(v) if v.served => Ok(Some(version.to_owned())),
        Some(_) => Err(Failure::Usage(format!(
            "--to {to}: {name} (at {position}) does not serve {version}, so the API server returns no object at it (served: {served})"
        ))),
        None => Err(Failure::Usage(format!(
            "--to {to}: {name} (at {position}) has no version {version} (served: {served})"
        ))),
    }
}

/// Converts the objects of one CRD to `target`, each to its converted form or an error.
///
/// # Errors
/// [`Failure::Input`] when the CRD's schemas do not compile, or its webhook cannot be called
/// (no URL, a bad CA bundle file).
fn convert_all(
    o: &Options,
    (position, crd): &(String, CustomResourceDefinition),
    target: &str,
    objects: Vec<Value>,
) -> Result<Vec<Result<Value, String>>, Failure> {
    let codec = Codec::new(crd).map_err(|e| Failure::Input(format!("{position}: {e}")))?;
    let strategy = crd
        .spec
        .conversion
        .as_ref()
        .map_or("None", |c| c.strategy.as_str());
    if strategy != "Webhook" {
        return Ok(objects
            .into_iter()
            .map(|obj| codec.convert_none(obj, target).map_err(|e| e.to_string()))
            .collect());
    }
    // Decoded at their own versions first; those already at the target are not sent.
    let mut results: Vec<Result<Value, String>> = Vec::with_capacity(objects.len());
    let mut to_send: Vec<(usize, Value)> = Vec::new();
    for (i, mut obj) in objects.into_iter().enumerate() {
        let decoded = codec
            .check(&obj, target)
            .and_then(|from| codec.decode(&mut obj, &from).map(|()| from));
        match decoded {
            Ok(from) if from == target => {
                results.push(
                    codec
                        .coerce(&mut obj, target)
                        .map(|()| obj)
                        .map_err(|e| e.to_string()),
                );
            }
            Ok(_) => {
                to_send.push((i, obj.clone()));
                results.push(Ok(obj));
            }
            Err(e) => results.push(Err(e.to_string())),
        }
    }
    if to_send.is_empty() {
        return Ok(results);
    }
    let desired = codec.api_version(target);
    let sent: Vec<Value> = to_send.iter().map(|(_, v)| v.clone()).collect();
    let first = &sent[0];
    let gvk = format!(
        "{}, Kind={}",
        first
            .get("apiVersion")
            .and_then(Value::as_str)
            .unwrap_or_default(),
        crd.spec.names.kind
    );
    let call = call_webhook(o, position, crd, &desired, &sent)?;
    match call {
        Ok(converted) => {
            for ((i, _), mut obj) in to_send.into_iter().zip(converted) {
                results[i] = codec
                    .coerce(&mut obj, target)
                    .map(|()| obj)
                    .map_err(|e: ConvertError| e.to_string());
            }
        }
        Err(message) => {
            let message = format!("conversion webhook for {gvk} {message}");
            for (i, _) in to_send {
                results[i] = Err(message.clone());
            }
        }
    }
    Ok(results)
}

/// Sends one `ConversionReview` of `objects` to the CRD's webhook (or `--webhook-url`) and
/// checks the answer as the API server does: the converted objects, or the error.
///
/// # Errors
/// [`Failure::Input`] when there is no URL to call or the `--ca-bundle` file cannot be read.
fn call_webhook(
    o: &Options,
    position: &str,
    crd: &CustomResourceDefinition,
    desired: &str,
    objects: &[Value],
) -> Result<Result<Vec<Value>, String>, Failure> {
    let webhook = crd
        .spec
        .conversion
        .as_ref()
        .and_then(|c| c.webhook.as_ref());
    let config = webhook.and_then(|w| w.client_config.as_ref());
    let name = crd.metadata.name.as_deref().unwrap_or_default();
    let url = match (&o.webhook_url, config.and_then(|c| c.url.as_ref())) {
        (Some(u), _) | (None, Some(u)) => u.clone(),
        (None, None) => {
            let service = config
                .and_then(|c| c.service.as_ref())
                .map(|s| format!(" (service {}/{})", s.namespace, s.name))
                .unwrap_or_default();
            return Err(Failure::Usage(format!(
                "{name} (at {position}) converts through a webhook without a URL{service}: give one with --webhook-url"
            )));
        }
    };
    let ca = match &o.ca_bundle {
        Some(path) => Some(
            std::fs::read(path).map_err(|e| Failure::Input(format!("{}: {e}", path.display())))?,
        ),
        None => match config.and_then(|c| c.ca_bundle.as_deref()) {
            // A whitespace-only bundle counts as none (`webhookClientConfigForCRD`).
            Some(b) if !b.trim().is_empty() => Some(
                crdkit_crd::cert::ca_bundle_bytes(b)
                    .map_err(|e| Failure::Input(format!("{position}: caBundle: {e}")))?,
            ),
            _ => None,
        },
    };
    let versions = webhook.map_or(&[][..], |w| &w.conversion_review_versions[..]);
    let version = match review::review_version(versions) {
        Ok(v) => v,
        Err(e) => return Ok(Err(format!("failed: {e}"))),
    };
    let uid = request_uid();
    let body = review::request(version, &uid, desired, objects);
    Ok(post(&url, ca.as_deref(), &body)
        .map_err(|e| format!("failed: {e}"))
        .and_then(|answer| review::converted_objects(version, &uid, objects, desired, &answer)))
}

#[cfg(feature = "webhook")]
fn post(url: &str, ca: Option<&[u8]>, body: &Value) -> Result<Value, String> {
    http::post(url, ca, body)
}

#[cfg(not(feature = "webhook"))]
fn post(_: &str, _: Option<&[u8]>, _: &Value) -> Result<Value, String> {
    Err("this crdgen cannot call webhooks: build crdkit-cli with its `webhook` feature".to_owned())
}

/// A fresh request uid in the UUID form (random enough to tell requests apart; the answer must
/// echo it).
fn request_uid() -> String {
    use std::hash::{BuildHasher, Hasher};
    let random = |salt: u64| {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_u64(salt);
        h.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        h.finish()
    };
    let (a, b) = (random(1), random(2));
    format!(
        "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0x0fff,
        0x8000 | (b >> 48 & 0x3fff),
        b & 0xffff_ffff_ffff
    )
}
