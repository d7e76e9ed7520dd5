//! Differentiation on the graph: forward-mode tangents built as new nodes of the
//! same graph (so they fold, share and emit like any other), and substitution
//! of inputs by other nodes, re-folding on the way (derivatives at `δ = 0`).

use std::collections::HashMap;

use crate::graph::{Graph, Node, NodeId};

impl Graph {
    /// `d outputs[i] / d wrt[j]` as nodes of this graph: `result[i][j]`.
    ///
    /// Forward mode, one sweep per input in `wrt`, visiting only the nodes that
    /// both depend on that input and feed an output; a zero tangent is never
    /// built. Rules: the usual ones, `d atan2(y, x) = (x dy - y dx) / (x² + y²)`,
    /// and `d select(c, a, b) = select(c, da, db)` (the condition is piecewise
    /// constant).
    pub fn jacobian(&mut self, outputs: &[NodeId], wrt: &[NodeId]) -> Vec<Vec<NodeId>> {
        let n = self.nodes().len();
        let live = self.reachable(outputs);
        let zero = self.constant(0.0);
        let mut result = vec![vec![zero; wrt.len()]; outputs.len()];
        for (j, &input) in wrt.iter().enumerate() {
            assert!(
                matches!(self.node(input), Node::Input(_)),
                "differentiation is with respect to inputs"
            );
            let mut tangent: Vec<Option<NodeId>> = vec![None; n];
            tangent[input.0 as usize] = Some(self.constant(1.0));
            for i in input.0 as usize + 1..n {
                if live[i] {
                    tangent[i] = self.tangent(NodeId(i as u32), &tangent);
                }
            }
            for (row, o) in result.iter_mut().zip(outputs) {
                if let Some(t) = tangent[o.0 as usize] {
                    row[j] = t;
                }
            }
        }
        result
    }

    /// The tangent of node `id` given its operands' tangents (`None` = zero).
    fn tangent(&mut self, id: NodeId, t: &[Option<NodeId>]) -> Option<NodeId> {
        let node = self.node(id);
        let d = |x: NodeId| t[x.0 as usize];
        if node.children().all(|c| d(c).is_none()) {
            return None;
        }
        let zero = self.constant(0.0);
        let dz = |x: NodeId| d(x).unwrap_or(zero);
        Some(match node {
            Node::Const(_) | Node::Input(_) => return None,
            Node::Neg(a) => self.add(Node::Neg(dz(a))),
            Node::Add(a, b) => self.add(Node::Add(dz(a), dz(b))),
            Node::Sub(a, b) => self.add(Node::Sub(dz(a), dz(b))),
            Node::Mul(a, b) => {
                let l = self.add(Node::Mul(dz(a), b));
                let r = self.add(Node::Mul(a, dz(b)));
                self.add(Node::Add(l, r))
            }
            Node::Div(a, b) => {
                // (da - (a / b) db) / b
                let q_db = self.add(Node::Mul(id, dz(b)));
                let num = self.add(Node::Sub(dz(a), q_db));
                self.add(Node::Div(num, b))
            }
            Node::Sin(a) => {
                let c = self.add(Node::Cos(a));
                self.add(Node::Mul(c, dz(a)))
            }
            Node::Cos(a) => {
                let s = self.add(Node::Sin(a));
                let m = self.add(Node::Mul(s, dz(a)));
                self.add(Node::Neg(m))
            }
            Node::Sqrt(a) => {
                // da / (2 √a)
                let two = self.constant(2.0);
                let den = self.add(Node::Mul(two, id));
                self.add(Node::Div(dz(a), den))
            }
            Node::Atan2(y, x) => {
                let xdy = self.add(Node::Mul(x, dz(y)));
                let ydx = self.add(Node::Mul(y, dz(x)));
                let num = self.add(Node::Sub(xdy, ydx));
                let xx = self.add(Node::Mul(x, x));
                let yy = self.add(Node::Mul(y, y));
                let den = self.add(Node::Add(xx, yy));
                self.add(Node::Div(num, den))
            }
            Node::Select(c, a, b) => self.add(Node::Select(c, dz(a), dz(b))),
        })
    }

    /// `roots` rebuilt with every node in `map` replaced by its image, folding
    /// again on the way (so that, with inputs mapped to constants, whatever
    /// becomes constant is computed now). Returns the new roots.
    pub fn substitute(&mut self, roots: &[NodeId], map: &HashMap<NodeId, NodeId>) -> Vec<NodeId> {
        let n = self.nodes().len();
        let live = self.reachable(roots);
        let mut image: Vec<NodeId> = (0..n as u32).map(NodeId).collect();
        for i in 0..n {
            let id = NodeId(i as u32);
            if !live[i] {
                continue;
            }
            if let Some(&to) = map.get(&id) {
                image[i] = to;
                continue;
            }
            let node = self.node(id);
            if node.children().all(|c| image[c.0 as usize] == c) {
                continue;
            }
            let m = |x: NodeId| image[x.0 as usize];
            let rebuilt = match node {
                Node::Const(_) | Node::Input(_) => node,
                Node::Neg(a) => Node::Neg(m(a)),
                Node::Add(a, b) => Node::Add(m(a), m(b)),
                Node::Sub(a, b) => Node::Sub(m(a), m(b)),
                Node::Mul(a, b) => Node::Mul(m(a), m(b)),
                Node::Div(a, b) => Node::Div(m(a), m(b)),
                Node::Sin(a) => Node::Sin(m(a)),
                Node::Cos(a) => Node::Cos(m(a)),
                Node::Sqrt(a) => Node::Sqrt(m(a)),
                Node::Atan2(a, b) => Node::Atan2(m(a), m(b)),
                Node::Select(c, a, b) => Node::Select(m(c), m(a), m(b)),
            };
            image[i] = self.add(rebuilt);
        }
        roots.iter().map(|r| image[r.0 as usize]).collect()
    }
}
