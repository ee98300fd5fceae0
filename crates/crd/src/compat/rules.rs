//! The estimated costs of CEL rules, old and new: a rule whose cost grew (a bound removed or
//! raised, a list or map now unbounded) may reach the API server's limits in a later change,
//! and costs more on every request.

use super::schema::{child, items, items_schema, values, values_schema};
use super::{Code, Finding, Severity};
use crate::crd_check::cel::{child_cardinality, rule_costs};
use crdkit_cel::cost::{STATIC_ESTIMATED_COST_LIMIT, STATIC_ESTIMATED_CRD_COST_LIMIT};
use crdkit_cel::rule::RuleOptions;
use crdkit_schema::JsonSchemaProps;

pub(super) fn compare_costs(
    version: &str,
    old: &JsonSchemaProps,
    new: &JsonSchemaProps,
    out: &mut Vec<Finding>,
) {
    let mut w = Walk {
        version,
        options: RuleOptions::default(),
        old_total: 0,
        new_total: 0,
        out,
    };
    w.node(".", Some((old, Some(1))), Some((new, Some(1))), true, 0);
    if w.new_total > w.old_total && w.old_total > 0 {
        let over = if w.new_total > STATIC_ESTIMATED_CRD_COST_LIMIT {
            format!(", over the limit of {STATIC_ESTIMATED_CRD_COST_LIMIT} for a schema")
        } else {
            String::new()
        };
        let (old_total, new_total) = (w.old_total, w.new_total);
        w.out.push(Finding {
            severity: Severity::Info,
            code: Code::RuleCostGrew,
            version: Some(version.to_owned()),
            path: ".".to_owned(),
            message: format!(
                "the estimated cost of all rules grew from {old_total} to {new_total}{over}"
            ),
        });
    }
}

/// A node and its cardinality (`None`: unbounded).
type Side<'a> = Option<(&'a JsonSchemaProps, Option<u64>)>;

struct Walk<'a> {
    version: &'a str,
    options: RuleOptions,
    old_total: u64,
    new_total: u64,
    out: &'a mut Vec<Finding>,
}

impl Walk<'_> {
    fn node(&mut self, path: &str, old: Side<'_>, new: Side<'_>, is_root: bool, depth: usize) {
        if depth > crdkit_schema::check::MAX_SCHEMA_DEPTH {
            return;
        }
        let costs = |side: Side<'_>, options: &RuleOptions| match side {
            Some((s, card)) if !s.x_validations.is_empty() => rule_costs(s, card, is_root, options),
            _ => Vec::new(),
        };
        let (old_costs, new_costs) = (costs(old, &self.options), costs(new, &self.options));
        self.old_total = self
            .old_total
            .saturating_add(old_costs.iter().flatten().sum::<u64>());
        self.new_total = self
            .new_total
            .saturating_add(new_costs.iter().flatten().sum::<u64>());
        if let (Some((o, _)), Some((n, _))) = (old, new) {
            for (i, r) in n.x_validations.iter().enumerate() {
                let Some(j) = o.x_validations.iter().position(|x| x.rule == r.rule) else {
                    continue;
                };
                if let (Some(Some(before)), Some(Some(after))) =
                    (old_costs.get(j), new_costs.get(i))
                    && after > before
                {
                    let over = if *after > STATIC_ESTIMATED_COST_LIMIT {
                        format!(", over the per-rule limit of {STATIC_ESTIMATED_COST_LIMIT}")
                    } else {
                        String::new()
                    };
                    self.out.push(Finding {
                        severity: Severity::Info,
                        code: Code::RuleCostGrew,
                        version: Some(self.version.to_owned()),
                        path: path.to_owned(),
                        message: format!(
                            "the estimated cost of rule {i} ({:?}) grew from {before} to {after}{over}",
                            r.rule
                        ),
                    });
                }
            }
        }
        fn child_side<'s>(
            side: Side<'s>,
            pick: &dyn Fn(&'s JsonSchemaProps) -> Option<&'s JsonSchemaProps>,
        ) -> Side<'s> {
            side.and_then(|(s, card)| pick(s).map(|c| (c, child_cardinality(s, card))))
        }
        let mut names: Vec<&String> = old
            .iter()
            .chain(new.iter())
            .flat_map(|(s, _)| s.properties.keys())
            .collect();
        names.sort();
        names.dedup();
        for k in names {
            let o = child_side(old, &|s| s.properties.get(k));
            let n = child_side(new, &|s| s.properties.get(k));
            self.node(&child(path, k), o, n, false, depth + 1);
        }
        let (o, n) = (
            child_side(old, &items_schema),
            child_side(new, &items_schema),
        );
        if o.is_some() || n.is_some() {
            self.node(&items(path), o, n, false, depth + 1);
        }
        let (o, n) = (
            child_side(old, &values_schema),
            child_side(new, &values_schema),
        );
        if o.is_some() || n.is_some() {
            self.node(&values(path), o, n, false, depth + 1);
        }
    }
}
