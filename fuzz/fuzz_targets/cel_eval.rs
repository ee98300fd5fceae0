//! The evaluator never panics and always stops within the cost limit, whatever the rule.
#![no_main]

use crdkit_cel::eval::{Activation, CostTracker, Program};

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let Ok(program) = Program::compile_str(src) else { return };
    let schema = crdkit_fuzz::schema();
    let object = crdkit_fuzz::object();
    let spec = &schema.properties["spec"];
    let activation = Activation::new().bind_json("self", &object["spec"], spec).bind_json("oldSelf", &object["spec"], spec);
    let mut cost = CostTracker::kubernetes();
    let _ = program.eval(&activation, &mut cost);
    assert!(cost.actual_cost() <= crdkit_cel::eval::PER_CALL_LIMIT + 10_000, "ran past the cost limit");
});
