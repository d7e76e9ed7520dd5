//! Numeric interpretation of a graph: the reference the emitted code and every
//! rewrite are tested against.

use crate::graph::{Graph, NodeId};

impl Graph {
    /// The values of `outputs` at `inputs` (indexed by input number). Inputs
    /// beyond `inputs` (internal variables of a trace that the outputs no
    /// longer depend on) are NaN.
    pub fn eval(&self, inputs: &[f64], outputs: &[NodeId]) -> Vec<f64> {
        let mut values = Vec::with_capacity(self.nodes().len());
        for node in self.nodes() {
            let input = |k: u32| inputs.get(k as usize).copied().unwrap_or(f64::NAN);
            let v = node.apply(|id| values[id.0 as usize], input);
            values.push(v);
        }
        outputs.iter().map(|o| values[o.0 as usize]).collect()
    }
}
