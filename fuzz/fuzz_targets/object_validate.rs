//! Pruning, defaulting and validation (OpenAPI and CEL) of any JSON never panic, on create and
//! on update: the input is a stream of one or two JSON values, the new object and the stored
//! one (without a second, the new object before pruning).
#![no_main]

use std::sync::OnceLock;

use crdkit_schema::ValidationRule;
use crdkit_apiextensions::validate::CompiledSchema;

fn compiled() -> &'static CompiledSchema {
    static SCHEMA: OnceLock<CompiledSchema> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let mut root = crdkit_fuzz::schema();
        let spec = root.properties.get_mut("spec").expect("spec");
        for rule in ["self.replicas >= 0", "self.ports.all(p, p.port > 0)", "self.name.matches('^[a-z]+$')", "!has(self.port) || self.port != 0"] {
            spec.extensions.validations.push(ValidationRule { rule: rule.into(), ..ValidationRule::default() });
        }
        CompiledSchema::new(&root)
    })
}

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let mut values = serde_json::Deserializer::from_slice(data).into_iter::<serde_json::Value>();
    let Some(Ok(mut value)) = values.next() else { return };
    let old = match values.next() {
        Some(Ok(old)) => old,
        Some(Err(_)) => return,
        None => value.clone(),
    };
    let schema = compiled();
    if schema.prune_and_default(&mut value).is_ok() {
        for e in schema.validate(&value) {
            let _ = e.to_string();
        }
        let _ = schema.validate_update(&value, &old);
    }
});
