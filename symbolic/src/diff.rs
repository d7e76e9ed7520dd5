//! Automatic differentiation on the graph: forward and reverse mode build the
//! derivative of some outputs with respect to some nodes as new nodes of the
//! same graph, so that the derivatives are folded, hash-consed, simplified and
//! emitted like any traced function.
//!
//! The rules are those of [`Node::apply`]'s operations (`d(a·b) = da·b + a·db`,
//! `d sin a = cos a · da`, `d √a = da / (2 √a)`, `d atan2(a, b) = (b da - a db)
//! / (a² + b²)`); a selection differentiates each side and keeps the condition
//! (`d select(c, a, b) = select(c, da, db)`), the derivative almost everywhere.
//!
//! Derivatives with respect to a configuration are taken in the tangent space
//! as Pinocchio's are: the function is traced at `integrate(q, δ)` with `δ` a
//! new input, differentiated with respect to `δ`, and `δ` is then set to zero
//! by [`substitute_zero`], which also drops the sides of the selections that
//! `δ = 0` rules out (the exact side of a series switch, whose derivative at
//! zero would divide by zero).

use crate::graph::{Graph, Node, NodeId};

/// How a Jacobian is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// One tangent sweep per input, from the inputs to the outputs: for few
    /// inputs.
    Forward,
    /// One adjoint sweep per output, from the output to the inputs: for few
    /// outputs (a gradient is one sweep).
    Reverse,
}

impl Mode {
    /// The mode for a Jacobian of `outputs` rows and `inputs` columns, from
    /// the count of sweeps each needs: reverse when there are at most a
    /// quarter as many outputs as inputs (a gradient, the centre of mass),
    /// forward when there are at least as many outputs as inputs, and `None`
    /// in between, where the structure decides: a reverse sweep visits the
    /// output's whole cone, a forward sweep only what its input moves (the
    /// Jacobian of `aba` of Go2+Z1, 24 outputs and 72 inputs, is 88k
    /// operations forward and 241k reverse; that of `rnea` 37k and 34k).
    pub fn for_shape(outputs: usize, inputs: usize) -> Option<Mode> {
        if 4 * outputs <= inputs {
            Some(Mode::Reverse)
        } else if outputs >= inputs {
            Some(Mode::Forward)
        } else {
            None
        }
    }
}

/// `∂outputs[i] / ∂wrt[j]` as nodes of `graph`, row `i` for output `i`
/// (`wrt` are usually inputs, but any node can be one: the derivative holds
/// the other `wrt` nodes fixed only where they are inputs).
pub fn jacobian(
    graph: &mut Graph,
    outputs: &[NodeId],
    wrt: &[NodeId],
    mode: Mode,
) -> Vec<Vec<NodeId>> {
    let zero = graph.constant(0.0);
    match mode {
        Mode::Forward => {
            let mut rows = vec![Vec::with_capacity(wrt.len()); outputs.len()];
            let live = graph.reachable(outputs);
            for &x in wrt {
                let column = forward(graph, outputs, x, &live);
                for (row, d) in rows.iter_mut().zip(column) {
                    row.push(d.unwrap_or(zero));
                }
            }
            rows
        }
        Mode::Reverse => outputs
            .iter()
            .map(|&o| {
                let adjoint = reverse(graph, o);
                wrt.iter()
                    .map(|x| adjoint.get(x.0 as usize).copied().flatten().unwrap_or(zero))
                    .collect()
            })
            .collect(),
    }
}

/// `a + b` where `None` is zero.
fn sum(graph: &mut Graph, a: Option<NodeId>, b: Option<NodeId>) -> Option<NodeId> {
    match (a, b) {
        (Some(a), Some(b)) => Some(graph.add(Node::Add(a, b))),
        (x, None) | (None, x) => x,
    }
}

/// The directional derivative of `outputs` along the input (or node) `x`:
/// the tangent of each output, `None` where it is zero. `live` is
/// `graph.reachable(outputs)`.
fn forward(graph: &mut Graph, outputs: &[NodeId], x: NodeId, live: &[bool]) -> Vec<Option<NodeId>> {
    let n = live.len();
    let mut tangent: Vec<Option<NodeId>> = vec![None; n];
    for i in x.0 as usize..n {
        if !live[i] {
            continue;
        }
        let y = NodeId(i as u32);
        if y == x {
            tangent[i] = Some(graph.constant(1.0));
            continue;
        }
        let t = |id: NodeId| tangent[id.0 as usize];
        let node = graph.node(y);
        if node.children().all(|c| t(c).is_none()) {
            continue;
        }
        tangent[i] = match node {
            Node::Const(_) | Node::Input(_) => None,
            Node::Neg(a) => t(a).map(|ta| graph.add(Node::Neg(ta))),
            Node::Add(a, b) => sum(graph, t(a), t(b)),
            Node::Sub(a, b) => {
                let nb = t(b).map(|tb| graph.add(Node::Neg(tb)));
                sum(graph, t(a), nb)
            }
            Node::Mul(a, b) => {
                let l = t(a).map(|ta| graph.add(Node::Mul(ta, b)));
                let r = t(b).map(|tb| graph.add(Node::Mul(a, tb)));
                sum(graph, l, r)
            }
            Node::Div(a, b) => {
                // (ta - y tb) / b
                let yt = t(b).map(|tb| {
                    let m = graph.add(Node::Mul(y, tb));
                    graph.add(Node::Neg(m))
                });
                let num = sum(graph, t(a), yt);
                num.map(|num| graph.add(Node::Div(num, b)))
            }
            Node::Sin(a) => t(a).map(|ta| {
                let c = graph.add(Node::Cos(a));
                graph.add(Node::Mul(ta, c))
            }),
            Node::Cos(a) => t(a).map(|ta| {
                let s = graph.add(Node::Sin(a));
                let m = graph.add(Node::Mul(ta, s));
                graph.add(Node::Neg(m))
            }),
            Node::Sqrt(a) => t(a).map(|ta| {
                let half = graph.constant(0.5);
                let h = graph.add(Node::Mul(ta, half));
                graph.add(Node::Div(h, y))
            }),
            Node::Atan2(a, b) => {
                let den = atan2_denominator(graph, a, b);
                let l = t(a).map(|ta| graph.add(Node::Mul(b, ta)));
                let r = t(b).map(|tb| {
                    let m = graph.add(Node::Mul(a, tb));
                    graph.add(Node::Neg(m))
                });
                sum(graph, l, r).map(|num| graph.add(Node::Div(num, den)))
            }
            Node::Select(c, a, b) => {
                let zero = graph.constant(0.0);
                let (ta, tb) = (t(a).unwrap_or(zero), t(b).unwrap_or(zero));
                Some(graph.add(Node::Select(c, ta, tb)))
            }
        };
    }
    outputs.iter().map(|o| tangent[o.0 as usize]).collect()
}

/// `a² + b²`, the denominator of the derivatives of `atan2(a, b)`.
fn atan2_denominator(graph: &mut Graph, a: NodeId, b: NodeId) -> NodeId {
    let aa = graph.add(Node::Mul(a, a));
    let bb = graph.add(Node::Mul(b, b));
    graph.add(Node::Add(aa, bb))
}

/// The adjoint of every node of `output`'s cone (`None` where it is zero, or
/// outside the cone): `adjoint[x] = ∂output / ∂x`, indexed by node id.
fn reverse(graph: &mut Graph, output: NodeId) -> Vec<Option<NodeId>> {
    let n = output.0 as usize + 1;
    let mut adjoint: Vec<Option<NodeId>> = vec![None; n];
    adjoint[output.0 as usize] = Some(graph.constant(1.0));
    for i in (0..n).rev() {
        let Some(g) = adjoint[i] else { continue };
        let y = NodeId(i as u32);
        let mut push = |graph: &mut Graph, child: NodeId, d: NodeId| {
            let slot = &mut adjoint[child.0 as usize];
            *slot = sum(graph, *slot, Some(d));
        };
        match graph.node(y) {
            Node::Const(_) | Node::Input(_) => {}
            Node::Neg(a) => {
                let d = graph.add(Node::Neg(g));
                push(graph, a, d);
            }
            Node::Add(a, b) => {
                push(graph, a, g);
                push(graph, b, g);
            }
            Node::Sub(a, b) => {
                push(graph, a, g);
                let d = graph.add(Node::Neg(g));
                push(graph, b, d);
            }
            Node::Mul(a, b) => {
                let da = graph.add(Node::Mul(g, b));
                push(graph, a, da);
                let db = graph.add(Node::Mul(g, a));
                push(graph, b, db);
            }
            Node::Div(a, b) => {
                let da = graph.add(Node::Div(g, b));
                push(graph, a, da);
                // -(g y) / b = -da y
                let m = graph.add(Node::Mul(da, y));
                let db = graph.add(Node::Neg(m));
                push(graph, b, db);
            }
            Node::Sin(a) => {
                let c = graph.add(Node::Cos(a));
                let d = graph.add(Node::Mul(g, c));
                push(graph, a, d);
            }
            Node::Cos(a) => {
                let s = graph.add(Node::Sin(a));
                let m = graph.add(Node::Mul(g, s));
                let d = graph.add(Node::Neg(m));
                push(graph, a, d);
            }
            Node::Sqrt(a) => {
                let half = graph.constant(0.5);
                let h = graph.add(Node::Mul(g, half));
                let d = graph.add(Node::Div(h, y));
                push(graph, a, d);
            }
            Node::Atan2(a, b) => {
                let den = atan2_denominator(graph, a, b);
                let w = graph.add(Node::Div(g, den));
                let da = graph.add(Node::Mul(w, b));
                push(graph, a, da);
                let m = graph.add(Node::Mul(w, a));
                let db = graph.add(Node::Neg(m));
                push(graph, b, db);
            }
            Node::Select(c, a, b) => {
                let zero = graph.constant(0.0);
                let da = graph.add(Node::Select(c, g, zero));
                push(graph, a, da);
                let db = graph.add(Node::Select(c, zero, g));
                push(graph, b, db);
            }
        }
    }
    adjoint
}

/// A new graph of `outputs` with the inputs numbered `keep..` set to zero and
/// the inputs `0..keep` kept (same numbers): constants fold again, and a
/// selection whose condition becomes constant keeps only the side it picks,
/// the other side never being built (it may divide by zero there). Returns
/// the graph and the outputs' new ids.
pub fn substitute_zero(graph: &Graph, outputs: &[NodeId], keep: u32) -> (Graph, Vec<NodeId>) {
    let nodes = graph.nodes();
    // The value of each node that `δ = 0` makes constant.
    let mut value: Vec<Option<f64>> = Vec::with_capacity(nodes.len());
    for node in nodes {
        let v = |id: NodeId| value[id.0 as usize];
        let x = match *node {
            Node::Input(k) => (k >= keep).then_some(0.0),
            Node::Select(c, a, b) => v(c).and_then(|c| if c > 0.0 { v(a) } else { v(b) }),
            Node::Mul(a, b) if v(a) == Some(0.0) || v(b) == Some(0.0) => Some(0.0),
            Node::Div(a, _) if v(a) == Some(0.0) => Some(0.0),
            _ if node.children().all(|c| v(c).is_some()) => {
                Some(node.apply(|id| v(id).unwrap_or(f64::NAN), |_| f64::NAN))
            }
            _ => None,
        };
        value.push(x);
    }
    // What the outputs need once the constant selections are decided.
    let mut live = vec![false; nodes.len()];
    for o in outputs {
        live[o.0 as usize] = true;
    }
    for i in (0..nodes.len()).rev() {
        if !live[i] || value[i].is_some() {
            continue;
        }
        match nodes[i] {
            Node::Select(c, a, b) if value[c.0 as usize].is_some() => {
                let pick = if value[c.0 as usize] > Some(0.0) {
                    a
                } else {
                    b
                };
                live[pick.0 as usize] = true;
            }
            node => {
                for c in node.children() {
                    live[c.0 as usize] = true;
                }
            }
        }
    }
    let mut out = Graph::new();
    for _ in 0..keep {
        out.new_input();
    }
    let mut map: Vec<NodeId> = vec![NodeId(u32::MAX); nodes.len()];
    for (i, node) in nodes.iter().enumerate() {
        if !live[i] {
            continue;
        }
        let m = |id: NodeId| map[id.0 as usize];
        map[i] = match (value[i], *node) {
            (Some(x), _) => out.constant(x),
            (None, Node::Input(k)) => out.input(k).expect("kept inputs made first"),
            (None, Node::Select(c, a, b)) if value[c.0 as usize].is_some() => {
                if value[c.0 as usize] > Some(0.0) {
                    m(a)
                } else {
                    m(b)
                }
            }
            (None, node) => out.add(node.map_children(m)),
        };
    }
    let outputs = outputs.iter().map(|o| map[o.0 as usize]).collect();
    (out, outputs)
}
