//! A DAG-aware greedy extractor. egg's `Extractor` minimises tree cost, which
//! counts a shared subterm once per use and so undoes common-subexpression
//! elimination; the generated code pays for a shared value once.
//!
//! Heuristic: the cost of an e-class is the number of operation classes in the
//! set it depends on (itself included), each counted once however often it is
//! reached. Bottom-up to a fixpoint, each class keeps the node whose operand
//! sets' union is smallest (ties: the earliest node of the class, which the
//! `deterministic` feature makes reproducible); a node whose operand set
//! already contains the class would make a cycle and is skipped. The choice is
//! greedy, not optimal (two classes may each prefer a node that shares nothing
//! with the other's); the caller keeps the original window when the extracted
//! one is not cheaper.

use egg::{EGraph, Language};

use super::{ConstantFold, Math};

/// The chosen node of each e-class, indexed by canonical class id.
pub struct DagChoice {
    /// `best[class]`: the chosen node, children canonical.
    pub best: Vec<Option<Math>>,
}

/// Upper bound on the bottom-up passes (each pass that changes nothing ends it).
const MAX_PASSES: usize = 64;

impl DagChoice {
    /// Chooses a node for every e-class of `egraph` (which must be rebuilt).
    pub fn new(egraph: &EGraph<Math, ConstantFold>) -> Self {
        let n = egraph
            .classes()
            .map(|c| usize::from(c.id) + 1)
            .max()
            .unwrap_or(0);
        let words = n.div_ceil(64);
        let mut classes: Vec<_> = egraph.classes().collect();
        classes.sort_by_key(|c| c.id);
        let mut best: Vec<Option<Math>> = vec![None; n];
        let mut deps: Vec<Option<Vec<u64>>> = vec![None; n];
        let mut cost = vec![usize::MAX; n];
        for _ in 0..MAX_PASSES {
            let mut changed = false;
            for class in &classes {
                let me = usize::from(class.id);
                for node in &class.nodes {
                    let mut set = vec![0u64; words];
                    let mut ready = true;
                    for child in node.children() {
                        match &deps[usize::from(egraph.find(*child))] {
                            Some(d) => set.iter_mut().zip(d).for_each(|(s, d)| *s |= d),
                            None => {
                                ready = false;
                                break;
                            }
                        }
                    }
                    if !ready || set[me / 64] & (1 << (me % 64)) != 0 {
                        continue;
                    }
                    if !matches!(node, Math::Const(_) | Math::Leaf(_)) {
                        set[me / 64] |= 1 << (me % 64);
                    }
                    let c: usize = set.iter().map(|w| w.count_ones() as usize).sum();
                    if c < cost[me] {
                        cost[me] = c;
                        best[me] = Some(node.clone().map_children(|i| egraph.find(i)));
                        deps[me] = Some(set);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        Self { best }
    }
}
