//! Runtime cost accounting: cel-go `interpreter/runtimecost.go` `CostTracker` with the limits
//! of apiserver `pkg/apis/cel/config.go`.

use super::{PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET};

/// Runtime cost accounting (cel-go `CostTracker` with apiserver's limits).
#[derive(Clone, Debug)]
pub struct CostTracker {
    /// `cel.CostLimit`: an evaluation costing more is cancelled with
    /// [`COST_LIMIT_MESSAGE`](super::COST_LIMIT_MESSAGE).
    pub per_call_limit: Option<u64>,
    /// The budget left for further evaluations (`RuntimeCELCostBudget` per object); an
    /// evaluation is cancelled as soon as it would exceed it, and each evaluation's cost is
    /// deducted.
    pub remaining_budget: Option<u64>,
    /// cel-go `PresenceTestHasCost`; Kubernetes sets it to false.
    pub presence_test_has_cost: bool,
    last: u64,
    total: u64,
    exhausted: bool,
}

impl CostTracker {
    /// The API server's settings: `PerCallLimit`, a fresh `RuntimeCELCostBudget` and
    /// presence tests without cost.
    #[must_use]
    pub fn kubernetes() -> CostTracker {
        CostTracker {
            per_call_limit: Some(PER_CALL_LIMIT),
            remaining_budget: Some(RUNTIME_CEL_COST_BUDGET),
            presence_test_has_cost: false,
            last: 0,
            total: 0,
            exhausted: false,
        }
    }

    /// A per-call limit and a budget for all evaluations, each `None` for no limit; presence
    /// tests cost nothing, as in Kubernetes.
    ///
    /// ```
    /// use crdkit_cel::eval::CostTracker;
    ///
    /// let budget = CostTracker::new(Some(1_000), Some(5_000));
    /// assert_eq!(budget.remaining_budget, Some(5_000));
    /// ```
    #[must_use]
    pub fn new(per_call_limit: Option<u64>, budget: Option<u64>) -> CostTracker {
        CostTracker {
            per_call_limit,
            remaining_budget: budget,
            ..CostTracker::kubernetes()
        }
    }

    /// No limit (cost is still measured).
    #[must_use]
    pub fn unlimited() -> CostTracker {
        CostTracker {
            per_call_limit: None,
            remaining_budget: None,
            ..CostTracker::kubernetes()
        }
    }

    pub(super) fn limit(&self) -> u64 {
        let a = self.per_call_limit.unwrap_or(u64::MAX);
        let b = self.remaining_budget.unwrap_or(u64::MAX);
        a.min(b)
    }

    pub(super) fn record(&mut self, cost: u64) {
        self.last = cost;
        self.total = self.total.saturating_add(cost);
        if let Some(r) = &mut self.remaining_budget {
            if cost > *r {
                self.exhausted = true;
            }
            *r = r.saturating_sub(cost);
        }
    }

    /// The actual cost of the last evaluation (at cancellation, the cost that went over).
    #[must_use]
    pub fn actual_cost(&self) -> u64 {
        self.last
    }

    /// The sum of the costs of all evaluations.
    #[must_use]
    pub fn total_cost(&self) -> u64 {
        self.total
    }

    /// Whether an evaluation went over the remaining budget (the API server then reports
    /// "validation failed due to running out of cost budget, no further validation rules will
    /// be run").
    #[must_use]
    pub fn budget_exhausted(&self) -> bool {
        self.exhausted
    }
}

impl Default for CostTracker {
    fn default() -> Self {
        CostTracker::kubernetes()
    }
}
