//! Scheduling: a traced graph becomes a list of statements, each value in a
//! local of its own assigned once, in topological order with ties broken by
//! node id, cut into parts when long, with the values that outlive their part
//! spilled to numbered entries (printed as fields of a struct `t`). Plain
//! data: [`super::print()`] turns it into Rust.

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

use crate::graph::{Graph, Node, NodeId};

/// How many joint angles share one vectorised sine-and-cosine call
/// ([`Op::SinCos4`]).
pub const TRIG_LANES: usize = 4;

/// Where a statement reads a value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Operand {
    /// A constant of the graph.
    Const(f64),
    /// Input number `k` of the traced function.
    Input(u32),
    /// Local `slot` of the current part, holding `node`.
    Local {
        /// The local's number in its part (`x{slot}`).
        slot: usize,
        /// The node whose value it holds.
        node: NodeId,
    },
    /// Entry `entry` of the spill struct `t`, holding `node` (a value computed
    /// in an earlier part).
    Spilled {
        /// The entry (printed `t.{entry}`).
        entry: usize,
        /// The node whose value it holds.
        node: NodeId,
    },
}

/// A summand that may be negated (a constant's negation is folded into it).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Signed {
    /// The value.
    pub operand: Operand,
    /// Whether it enters negated.
    pub negated: bool,
}

/// The operation of a statement, on its operands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Op {
    /// `-a`.
    Neg(Operand),
    /// `a + b`.
    Add(Operand, Operand),
    /// `a - b`.
    Sub(Operand, Operand),
    /// `a * b`.
    Mul(Operand, Operand),
    /// `a / b`.
    Div(Operand, Operand),
    /// `√a`.
    Sqrt(Operand),
    /// `atan2(a, b)`.
    Atan2(Operand, Operand),
    /// `if c > 0 { a } else { b }`.
    Select(Operand, Operand, Operand),
    /// `sin a`, alone (no cosine of the same argument).
    Sin(Operand),
    /// `cos a`, alone (no sine of the same argument).
    Cos(Operand),
    /// `(sin a, cos a)` in one call: a statement with two definitions, the
    /// sine first.
    SinCos(Operand),
    /// The sines and cosines of [`TRIG_LANES`] arguments in one vectorised
    /// call (the module's `sincos4`), the arguments padded with zeros. The
    /// flags say which of the eight results (the sines in argument order, then
    /// the cosines) are used; `defines` lists those, in that order.
    SinCos4([Operand; TRIG_LANES], [bool; 2 * TRIG_LANES]),
    /// `a * b + c`: a product fused into the sum or difference that is its
    /// only use (the module's `mul_add`).
    MulAdd(Signed, Operand, Signed),
}

impl Op {
    /// The values read, in order.
    pub fn operands(&self) -> Vec<Operand> {
        match *self {
            Op::Neg(a) | Op::Sqrt(a) | Op::Sin(a) | Op::Cos(a) | Op::SinCos(a) => vec![a],
            Op::Add(a, b) | Op::Sub(a, b) | Op::Mul(a, b) | Op::Div(a, b) | Op::Atan2(a, b) => {
                vec![a, b]
            }
            Op::Select(c, a, b) => vec![c, a, b],
            Op::SinCos4(args, _) => args.to_vec(),
            Op::MulAdd(a, b, c) => vec![a.operand, b, c.operand],
        }
    }
}

/// A value a statement defines: the node, its local, and the spill entry it
/// is also stored to, if it outlives its part.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Definition {
    /// The node computed.
    pub node: NodeId,
    /// Its local in the statement's part, assigned by this statement only.
    pub slot: usize,
    /// Its entry of the spill struct, if a later part uses it.
    pub spill: Option<usize>,
}

/// One assignment: `op` into the locals of `defines` (one value, or a sine
/// and a cosine), then the spill stores.
#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    /// What is computed.
    pub op: Op,
    /// Where the results go.
    pub defines: Vec<Definition>,
}

/// A run of consecutive statements emitted as one function of its own when a
/// block has several parts; its locals are its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    /// Its statements, indices into [`Schedule::statements`].
    pub statements: Range<usize>,
    /// The number of its locals, `0..locals`, numbered in the order their
    /// statements define them.
    pub locals: usize,
}

/// A graph's outputs as statements: what [`schedule()`] makes.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    /// Every statement, in order.
    pub statements: Vec<Statement>,
    /// The parts, in order, covering the statements (one part, possibly
    /// empty, for a short block).
    pub parts: Vec<Part>,
    /// The number of entries of the spill struct (0 for a single part).
    pub spills: usize,
    /// The outputs, in order: constants, inputs, or locals (of the part that
    /// computes them, where they are stored into the result).
    pub outputs: Vec<Operand>,
}

/// The statements computing `outputs` of `graph`.
///
/// Every live operation becomes a statement, in node-id order (which is
/// topological), except: the sines and cosines of inputs (the joint angles)
/// are [`Op::SinCos4`] statements at the top, [`TRIG_LANES`] angles to one (a
/// last lone angle is left to the next rule); a sine and a cosine of one
/// argument are one [`Op::SinCos`] statement (at the first of the two); a product whose only
/// use is one sum or difference, and which is not an output, is fused into it
/// ([`Op::MulAdd`]). Constants and inputs are read in place.
///
/// Each value goes into a local of its own, assigned once. (Reusing the local
/// of a dead value saves nothing in the compiled code, and reassigned locals
/// cost an optimised build about a third more time.) More than `whole_len`
/// statements are cut into parts of about equal length, at most `part_len`
/// each; a value used by a later part is also stored to an
/// entry of the spill struct, freed after the last part that reads it.
pub fn schedule(graph: &Graph, outputs: &[NodeId], whole_len: usize, part_len: usize) -> Schedule {
    let live = graph.reachable(outputs);
    let nodes = graph.nodes();
    let fused = fusions(graph, outputs, &live);
    // Sin and cos of one argument share one `sincos` call.
    let mut sin_of = HashMap::new();
    let mut cos_of = HashMap::new();
    // The arguments that are inputs (the joint angles), in the order of their
    // first sine or cosine.
    let mut angles: Vec<NodeId> = Vec::new();
    for (i, node) in nodes.iter().enumerate() {
        let (Node::Sin(a) | Node::Cos(a)) = node else {
            continue;
        };
        if !live[i] {
            continue;
        }
        match node {
            Node::Sin(_) => sin_of.insert(*a, i),
            _ => cos_of.insert(*a, i),
        };
        if matches!(nodes[a.0 as usize], Node::Input(_)) && !angles.contains(a) {
            angles.push(*a);
        }
    }
    let pair = |node: &Node| match node {
        Node::Sin(a) | Node::Cos(a) => sin_of.get(a).copied().zip(cos_of.get(a).copied()),
        _ => None,
    };
    // The angles, `TRIG_LANES` to one vectorised call at the top (a last lone
    // angle keeps a call of its own); each trigonometric node's group.
    let groups: Vec<&[NodeId]> = angles.chunks(TRIG_LANES).filter(|g| g.len() > 1).collect();
    let mut group_of: HashMap<usize, usize> = HashMap::new();
    for (g, args) in groups.iter().enumerate() {
        for a in args.iter() {
            for &n in sin_of.get(a).into_iter().chain(cos_of.get(a)) {
                group_of.insert(n, g);
            }
        }
    }
    // The nodes a statement defines: a group's sines then its cosines, a
    // sine and a cosine, or one value.
    let defs = |i: usize| -> Vec<usize> {
        if let Some(&g) = group_of.get(&i) {
            let args = groups[g];
            let sines = args.iter().filter_map(|a| sin_of.get(a));
            sines
                .chain(args.iter().filter_map(|a| cos_of.get(a)))
                .copied()
                .collect()
        } else if let Some((s, c)) = pair(&nodes[i]) {
            vec![s, c]
        } else {
            vec![i]
        }
    };
    // The statements, in order, each named by its first definition: the
    // groups of angles, then one per remaining node.
    let mut defined = vec![false; nodes.len()];
    let (mut order, mut order_defs) = (Vec::new(), Vec::new());
    let firsts = (0..groups.len()).map(|g| {
        let first = |a: &NodeId| sin_of.get(a).or(cos_of.get(a)).copied();
        first(&groups[g][0]).expect("an angle has a sine or a cosine")
    });
    let rest = (0..nodes.len()).filter(|&i| {
        let leaf = matches!(nodes[i], Node::Const(_) | Node::Input(_));
        live[i] && !leaf && !fused.product_of.contains_key(&i)
    });
    for i in firsts.chain(rest) {
        if defined[i] {
            continue;
        }
        let d = defs(i);
        for &d in &d {
            defined[d] = true;
        }
        order.push(i);
        order_defs.push(d);
    }
    let parts = if order.len() <= whole_len {
        1
    } else {
        order.len().div_ceil(part_len.max(1))
    };
    let per_part = order.len().div_ceil(parts).max(1);
    // The part of each defined node, and the last part using it.
    let mut part = vec![0usize; nodes.len()];
    for (k, &i) in order.iter().enumerate() {
        part[i] = k / per_part;
        for &d in &order_defs[k] {
            part[d] = part[i];
        }
        if let Some(&m) = fused.sum_of.get(&i) {
            part[m] = part[i];
        }
    }
    // Outputs are stored where they are computed: only a later part's use
    // makes a value outlive its part.
    let used_until = latest_use(graph, &live, &part);
    // Entries of the spill struct for the values that outlive their part.
    let mut spilled: HashMap<usize, usize> = HashMap::new();
    let mut spills = 0;
    if parts > 1 {
        let mut held: Vec<(usize, usize)> = Vec::new(); // (used until, entry)
        let mut free: BTreeSet<usize> = BTreeSet::new();
        for (&i, defines) in order.iter().zip(&order_defs) {
            held.retain(|&(until, entry)| {
                let keep = until >= part[i];
                if !keep {
                    free.insert(entry);
                }
                keep
            });
            for &d in defines {
                if used_until[d] > part[d] {
                    let entry = free.pop_first().unwrap_or_else(|| {
                        spills += 1;
                        spills - 1
                    });
                    spilled.insert(d, entry);
                    held.push((used_until[d], entry));
                }
            }
        }
    }
    // Locals, one part at a time.
    let mut slot: Vec<Option<usize>> = vec![None; nodes.len()];
    let mut statements = Vec::with_capacity(order.len());
    let mut part_list = vec![Part {
        statements: 0..0,
        locals: 0,
    }];
    for (k, &i) in order.iter().enumerate() {
        let current = part_list.len() - 1;
        if part[i] != current {
            let start = statements.len();
            part_list.push(Part {
                statements: start..start,
                locals: 0,
            });
        }
        let current = part[i];
        let this = part_list.last_mut().expect("a part");
        let operand = |id: NodeId| -> Operand {
            let d = id.0 as usize;
            match nodes[d] {
                Node::Const(bits) => Operand::Const(f64::from_bits(bits)),
                Node::Input(k) => Operand::Input(k),
                _ if part[d] != current => Operand::Spilled {
                    entry: spilled[&d],
                    node: id,
                },
                _ => Operand::Local {
                    slot: slot[d].expect("operand scheduled before use"),
                    node: id,
                },
            }
        };
        // `-x`, folded into a constant.
        let signed = |id: NodeId, negated: bool| match operand(id) {
            Operand::Const(x) if negated => Signed {
                operand: Operand::Const(-x),
                negated: false,
            },
            operand => Signed { operand, negated },
        };
        let plain = |id: NodeId| signed(id, false);
        let node = &nodes[i];
        let op = if let Some(&g) = group_of.get(&i) {
            let mut args = [Operand::Const(0.0); TRIG_LANES];
            let mut used = [false; 2 * TRIG_LANES];
            for (k, a) in groups[g].iter().enumerate() {
                args[k] = operand(*a);
                used[k] = sin_of.contains_key(a);
                used[TRIG_LANES + k] = cos_of.contains_key(a);
            }
            Op::SinCos4(args, used)
        } else if let Some(&m) = fused.sum_of.get(&i) {
            let Node::Mul(p, q) = nodes[m] else {
                unreachable!("only products are fused")
            };
            match *node {
                Node::Add(a, b) => {
                    let c = if a.0 as usize == m { b } else { a };
                    Op::MulAdd(plain(p), operand(q), plain(c))
                }
                Node::Sub(a, b) if a.0 as usize == m => {
                    Op::MulAdd(plain(p), operand(q), signed(b, true))
                }
                Node::Sub(a, _) => Op::MulAdd(signed(p, true), operand(q), plain(a)),
                _ => unreachable!("only sums take a fused product"),
            }
        } else {
            match *node {
                Node::Const(_) | Node::Input(_) => unreachable!("leaves are not statements"),
                Node::Neg(a) => Op::Neg(operand(a)),
                Node::Add(a, b) => Op::Add(operand(a), operand(b)),
                Node::Sub(a, b) => Op::Sub(operand(a), operand(b)),
                Node::Mul(a, b) => Op::Mul(operand(a), operand(b)),
                Node::Div(a, b) => Op::Div(operand(a), operand(b)),
                Node::Sqrt(a) => Op::Sqrt(operand(a)),
                Node::Atan2(a, b) => Op::Atan2(operand(a), operand(b)),
                Node::Select(c, a, b) => Op::Select(operand(c), operand(a), operand(b)),
                Node::Sin(a) | Node::Cos(a) => match pair(node) {
                    Some(_) => Op::SinCos(operand(a)),
                    None if matches!(node, Node::Sin(_)) => Op::Sin(operand(a)),
                    None => Op::Cos(operand(a)),
                },
            }
        };
        let mut defines = Vec::with_capacity(2 * TRIG_LANES);
        for &d in &order_defs[k] {
            let s = this.locals;
            this.locals += 1;
            slot[d] = Some(s);
            defines.push(Definition {
                node: NodeId(d as u32),
                slot: s,
                spill: spilled.get(&d).copied(),
            });
        }
        statements.push(Statement { op, defines });
        this.statements.end = statements.len();
    }
    let outputs = outputs
        .iter()
        .map(|&o| match graph.node(o) {
            Node::Const(bits) => Operand::Const(f64::from_bits(bits)),
            Node::Input(k) => Operand::Input(k),
            _ => Operand::Local {
                slot: slot[o.0 as usize].expect("output scheduled"),
                node: o,
            },
        })
        .collect();
    Schedule {
        statements,
        parts: part_list,
        spills,
        outputs,
    }
}

/// For each node, the largest `key` of its live users (0 for an unused node).
fn latest_use(graph: &Graph, live: &[bool], key: &[usize]) -> Vec<usize> {
    let mut latest = vec![0usize; key.len()];
    for (i, node) in graph.nodes().iter().enumerate() {
        if live[i] {
            for c in node.children() {
                let c = c.0 as usize;
                latest[c] = latest[c].max(key[i]);
            }
        }
    }
    latest
}

/// Products fused into the sum that uses them: `x = a * b; y = x + c` becomes
/// `y = mul_add(a, b, c)` (the generated module's helper: one rounding where the
/// target has FMA instructions). A product qualifies when its only use is as an
/// operand of one sum or difference and it is not an output; each sum takes at
/// most one.
struct Fusions {
    /// Sum node → the product fused into it.
    sum_of: HashMap<usize, usize>,
    /// Product node → the sum it is fused into.
    product_of: HashMap<usize, usize>,
}

fn fusions(graph: &Graph, outputs: &[NodeId], live: &[bool]) -> Fusions {
    let nodes = graph.nodes();
    let mut uses = vec![0usize; nodes.len()];
    for (node, _) in nodes.iter().zip(live).filter(|(_, &l)| l) {
        for c in node.children() {
            uses[c.0 as usize] += 1;
        }
    }
    for o in outputs {
        uses[o.0 as usize] = usize::MAX;
    }
    let mut f = Fusions {
        sum_of: HashMap::new(),
        product_of: HashMap::new(),
    };
    for (i, node) in nodes.iter().enumerate() {
        let (Node::Add(a, b) | Node::Sub(a, b)) = *node else {
            continue;
        };
        if !live[i] || a == b {
            continue;
        }
        let product = [a, b].into_iter().map(|c| c.0 as usize).find(|&c| {
            matches!(nodes[c], Node::Mul(..)) && uses[c] == 1 && !f.product_of.contains_key(&c)
        });
        if let Some(m) = product {
            f.sum_of.insert(i, m);
            f.product_of.insert(m, i);
        }
    }
    f
}
