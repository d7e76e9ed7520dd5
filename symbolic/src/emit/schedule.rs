//! Scheduling: a traced graph becomes a list of statements, each value in a
//! local of its own assigned once, in topological order with ties broken by
//! node id, cut into parts when long, with the values that outlive their part
//! spilled to numbered entries (printed as fields of a struct `t`). Plain
//! data: [`super::print()`] turns it into Rust.

use std::collections::{BTreeSet, HashMap};
use std::ops::Range;

use crate::graph::{Graph, Node, NodeId};
use crate::ops::{next_operand, operand_type, pad, Operator, MAX_ARITY};

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
    let uses = uses(graph, outputs, &live);
    let fused = fusions(graph, &live, &uses, |_, _| true);
    let trig = Trig::new(graph, &live);
    // The statements, in order, each named by its first definition: the
    // groups of angles, then one per remaining node.
    let mut defined = vec![false; nodes.len()];
    let (mut order, mut order_defs) = (Vec::new(), Vec::new());
    let firsts = trig.groups.iter().map(|group| {
        let first = |a: &NodeId| trig.sin_of.get(a).or(trig.cos_of.get(a)).copied();
        first(&group[0]).expect("an angle has a sine or a cosine")
    });
    let rest = (0..nodes.len()).filter(|&i| {
        let leaf = matches!(nodes[i], Node::Const(_) | Node::Input(_));
        live[i] && !leaf && !fused.product_of.contains_key(&i)
    });
    for i in firsts.chain(rest) {
        if defined[i] {
            continue;
        }
        let d = trig.defines(graph, i);
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
    let (spilled, spills) = match parts {
        1 => (HashMap::new(), 0),
        _ => spill_entries(graph, &live, &part, &order, &order_defs),
    };
    let mut slot: Vec<Option<usize>> = vec![None; nodes.len()];
    let (statements, parts) = Lowering {
        graph,
        trig: &trig,
        fused: &fused,
        part: &part,
        spilled: &spilled,
        slot: &mut slot,
    }
    .statements(&order, &order_defs);
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
        parts,
        spills,
        outputs,
    }
}

/// The sines and cosines of the schedule: of one argument, one `sincos`
/// call; of the inputs (the joint angles), [`TRIG_LANES`] to one vectorised
/// call at the top (a last lone angle keeps a call of its own).
struct Trig {
    /// The sine of each argument.
    sin_of: HashMap<NodeId, usize>,
    /// The cosine of each argument.
    cos_of: HashMap<NodeId, usize>,
    /// The groups of angles, in the order of their first sine or cosine.
    groups: Vec<Vec<NodeId>>,
    /// Each grouped sine's or cosine's group.
    group_of: HashMap<usize, usize>,
}

impl Trig {
    fn new(graph: &Graph, live: &[bool]) -> Self {
        let nodes = graph.nodes();
        let mut sin_of = HashMap::new();
        let mut cos_of = HashMap::new();
        // The arguments that are inputs, in the order of their first sine or cosine.
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
        let groups: Vec<Vec<NodeId>> = (angles.chunks(TRIG_LANES))
            .filter(|g| g.len() > 1)
            .map(<[NodeId]>::to_vec)
            .collect();
        let mut group_of: HashMap<usize, usize> = HashMap::new();
        for (g, args) in groups.iter().enumerate() {
            for a in args.iter() {
                for &n in sin_of.get(a).into_iter().chain(cos_of.get(a)) {
                    group_of.insert(n, g);
                }
            }
        }
        Self {
            sin_of,
            cos_of,
            groups,
            group_of,
        }
    }

    /// The sine and the cosine of `node`'s argument, if `node` is one of
    /// them and both are computed.
    fn pair(&self, node: &Node) -> Option<(usize, usize)> {
        match node {
            Node::Sin(a) | Node::Cos(a) => {
                self.sin_of.get(a).copied().zip(self.cos_of.get(a).copied())
            }
            _ => None,
        }
    }

    /// The nodes the statement of node `i` defines: a group's sines then its
    /// cosines, a sine and a cosine, or `i` alone.
    fn defines(&self, graph: &Graph, i: usize) -> Vec<usize> {
        if let Some(&g) = self.group_of.get(&i) {
            let args = &self.groups[g];
            let sines = args.iter().filter_map(|a| self.sin_of.get(a));
            sines
                .chain(args.iter().filter_map(|a| self.cos_of.get(a)))
                .copied()
                .collect()
        } else if let Some((s, c)) = self.pair(&graph.nodes()[i]) {
            vec![s, c]
        } else {
            vec![i]
        }
    }
}

/// The entries of the spill struct for the values that outlive their part
/// (an entry is reused after the last part reading it), and their number.
fn spill_entries(
    graph: &Graph,
    live: &[bool],
    part: &[usize],
    order: &[usize],
    order_defs: &[Vec<usize>],
) -> (HashMap<usize, usize>, usize) {
    // Outputs are stored where they are computed: only a later part's use
    // makes a value outlive its part.
    let used_until = latest_use(graph, live, part);
    let mut spilled: HashMap<usize, usize> = HashMap::new();
    let mut spills = 0;
    let mut held: Vec<(usize, usize)> = Vec::new(); // (used until, entry)
    let mut free: BTreeSet<usize> = BTreeSet::new();
    for (&i, defines) in order.iter().zip(order_defs) {
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
    (spilled, spills)
}

/// What turns the ordered nodes into statements: the graph, the decisions
/// made on it (trigonometry, fusions, parts, spills) and each node's local.
struct Lowering<'a> {
    graph: &'a Graph,
    trig: &'a Trig,
    fused: &'a Fusions,
    part: &'a [usize],
    spilled: &'a HashMap<usize, usize>,
    slot: &'a mut Vec<Option<usize>>,
}

impl Lowering<'_> {
    /// The statements of `order` (defining `order_defs`) and the parts,
    /// numbering locals one part at a time.
    fn statements(
        &mut self,
        order: &[usize],
        order_defs: &[Vec<usize>],
    ) -> (Vec<Statement>, Vec<Part>) {
        let mut statements = Vec::with_capacity(order.len());
        let mut parts = vec![Part {
            statements: 0..0,
            locals: 0,
        }];
        for (&i, defs) in order.iter().zip(order_defs) {
            if self.part[i] != parts.len() - 1 {
                let start = statements.len();
                parts.push(Part {
                    statements: start..start,
                    locals: 0,
                });
            }
            let op = self.op(i);
            let this = parts.last_mut().expect("a part");
            let mut defines = Vec::with_capacity(2 * TRIG_LANES);
            for &d in defs {
                let s = this.locals;
                this.locals += 1;
                self.slot[d] = Some(s);
                defines.push(Definition {
                    node: NodeId(d as u32),
                    slot: s,
                    spill: self.spilled.get(&d).copied(),
                });
            }
            statements.push(Statement { op, defines });
            this.statements.end = statements.len();
        }
        (statements, parts)
    }

    /// The operand `id` as read by the statement of node `i` (a local of its
    /// part, or an entry of the spill struct).
    fn operand(&self, i: usize, id: NodeId) -> Operand {
        let d = id.0 as usize;
        match self.graph.node(id) {
            Node::Const(bits) => Operand::Const(f64::from_bits(bits)),
            Node::Input(k) => Operand::Input(k),
            _ if self.part[d] != self.part[i] => Operand::Spilled {
                entry: self.spilled[&d],
                node: id,
            },
            _ => Operand::Local {
                slot: self.slot[d].expect("operand scheduled before use"),
                node: id,
            },
        }
    }

    /// The operation of the statement of node `i`.
    fn op(&self, i: usize) -> Op {
        let operand = |id: NodeId| self.operand(i, id);
        let node = self.graph.nodes()[i];
        if let Some(&g) = self.trig.group_of.get(&i) {
            let mut args = [Operand::Const(0.0); TRIG_LANES];
            let mut used = [false; 2 * TRIG_LANES];
            for (k, a) in self.trig.groups[g].iter().enumerate() {
                args[k] = operand(*a);
                used[k] = self.trig.sin_of.contains_key(a);
                used[TRIG_LANES + k] = self.trig.cos_of.contains_key(a);
            }
            return Op::SinCos4(args, used);
        }
        match (node, self.trig.pair(&node)) {
            (Node::Sin(a) | Node::Cos(a), Some(_)) => Op::SinCos(operand(a)),
            _ => {
                let product = self.fused.sum_of.get(&i).map(|&m| NodeId(m as u32));
                lower(self.graph, &node, product, &operand)
            }
        }
    }
}

/// The statement computing the operation `node` from its operands, read
/// through `operand`; with `product`, the operand of `node` (a sum or a
/// difference) that is fused into it ([`Op::MulAdd`], the sign of a
/// negated constant folded into it). The schedule's lowering of every node
/// but its sines and cosines, and the packed printer's of its scalars.
pub(super) fn lower(
    graph: &Graph,
    node: &Node,
    product: Option<NodeId>,
    operand: &dyn Fn(NodeId) -> Operand,
) -> Op {
    // `-x`, folded into a constant.
    let signed = |id: NodeId, negated: bool| match operand(id) {
        Operand::Const(x) if negated => Signed {
            operand: Operand::Const(-x),
            negated: false,
        },
        operand => Signed { operand, negated },
    };
    let plain = |id: NodeId| signed(id, false);
    if let Some(m) = product {
        let Node::Mul(p, q) = graph.node(m) else {
            unreachable!("only products are fused")
        };
        return match *node {
            Node::Add(a, b) => {
                let c = if a == m { b } else { a };
                Op::MulAdd(plain(p), operand(q), plain(c))
            }
            Node::Sub(a, b) if a == m => Op::MulAdd(plain(p), operand(q), signed(b, true)),
            Node::Sub(a, _) => Op::MulAdd(signed(p, true), operand(q), plain(a)),
            _ => unreachable!("only sums take a fused product"),
        };
    }
    let (op, args) = node.operation().expect("leaves are not statements");
    let operands: Vec<Operand> = args[..op.arity()].iter().map(|&a| operand(a)).collect();
    Op::from_operation(op, &operands)
}

/// The shared fusion step: of the two `operands` of a sum or difference,
/// the first that `product` accepts as a product to fuse into it; none
/// when both are one value (`x + x`: a fused product has no local).
pub(super) fn fused_operand<T: PartialEq, R>(
    operands: &[T],
    product: impl FnMut(&T) -> Option<R>,
) -> Option<R> {
    match operands {
        [a, b] if a != b => [a, b].into_iter().find_map(product),
        _ => None,
    }
}

/// Whether `node` is a sum or a difference, which may take a product fused.
pub(super) fn is_sum(node: &Node) -> bool {
    matches!(node, Node::Add(..) | Node::Sub(..))
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

/// For each node, its number of uses as an operand of a live node
/// (`usize::MAX` for an output, which is used at the end).
pub(super) fn uses(graph: &Graph, outputs: &[NodeId], live: &[bool]) -> Vec<usize> {
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
    uses
}

/// Products fused into the sum that uses them: `x = a * b; y = x + c` becomes
/// `y = mul_add(a, b, c)` (the generated module's helper: one rounding where the
/// target has FMA instructions). A product qualifies when its only use is as an
/// operand of one sum or difference and it is not an output; each sum takes at
/// most one ([`fused_operand`]).
pub(super) struct Fusions {
    /// Sum node → the product fused into it.
    pub sum_of: HashMap<usize, usize>,
    /// Product node → the sum it is fused into.
    pub product_of: HashMap<usize, usize>,
}

/// The fusions of the live sums, given each node's [`uses`]; `allowed(sum,
/// product)` may refuse a pair (the packed printer fuses scalars only), and
/// the sum then takes its other operand if that qualifies.
pub(super) fn fusions(
    graph: &Graph,
    live: &[bool],
    uses: &[usize],
    allowed: impl Fn(usize, usize) -> bool,
) -> Fusions {
    let nodes = graph.nodes();
    let mut f = Fusions {
        sum_of: HashMap::new(),
        product_of: HashMap::new(),
    };
    for (i, node) in nodes.iter().enumerate() {
        if !live[i] || !is_sum(node) {
            continue;
        }
        let operands: Vec<usize> = node.children().map(|c| c.0 as usize).collect();
        let product = fused_operand(&operands, |&c| {
            let fusable = matches!(nodes[c], Node::Mul(..))
                && uses[c] == 1
                && !f.product_of.contains_key(&c)
                && allowed(i, c);
            fusable.then_some(c)
        });
        if let Some(m) = product {
            f.sum_of.insert(i, m);
            f.product_of.insert(m, i);
        }
    }
    f
}

/// The schedule's operation from the operator list.
macro_rules! op_enum {
    ($($(#[doc = $doc:literal])* $name:ident($($arg:ident),+) [$sym:literal, $egg:ty, $class:ident,
        $spelling:expr, $wide:expr, $commutative:expr, |$x:ident| $value:expr])*) => {
        /// The operation of a statement, on its operands: an operator of the
        /// list, or one of the forms the schedule makes ([`Op::SinCos`],
        /// [`Op::SinCos4`], [`Op::MulAdd`]). A lone [`Op::Sin`] or [`Op::Cos`]
        /// has no partner of the same argument.
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum Op {
            $($(#[doc = $doc])* $name($(operand_type!($arg, Operand)),+),)*
            /// `(sin a, cos a)` in one call: a statement with two definitions,
            /// the sine first.
            SinCos(Operand),
            /// The sines and cosines of [`TRIG_LANES`] arguments in one
            /// vectorised call (the module's `sincos4`), the arguments padded
            /// with zeros. The flags say which of the eight results (the sines
            /// in argument order, then the cosines) are used; `defines` lists
            /// those, in that order.
            SinCos4([Operand; TRIG_LANES], [bool; 2 * TRIG_LANES]),
            /// `a * b + c`: a product fused into the sum or difference that is
            /// its only use (the module's `mul_add`).
            MulAdd(Signed, Operand, Signed),
        }

        impl Op {
            /// The operator and its operands (the first [`Operator::arity`]),
            /// `None` for the schedule's own forms.
            pub fn operation(&self) -> Option<(Operator, [Operand; MAX_ARITY])> {
                match *self {
                    $(Op::$name($($arg),+) => Some((Operator::$name, pad([$($arg),+]))),)*
                    Op::SinCos(_) | Op::SinCos4(..) | Op::MulAdd(..) => None,
                }
            }

            /// The statement applying `op` to `operands` (as many as its arity).
            pub fn from_operation(op: Operator, operands: &[Operand]) -> Op {
                let mut it = operands.iter().copied();
                match op {
                    $(Operator::$name => Op::$name($(next_operand!(it, $arg)),+),)*
                }
            }
        }

    };
}

crate::ops::for_each_operator!(op_enum);

impl Op {
    /// The values read, in order.
    pub fn operands(&self) -> Vec<Operand> {
        match *self {
            Op::SinCos(a) => vec![a],
            Op::SinCos4(args, _) => args.to_vec(),
            Op::MulAdd(a, b, c) => vec![a.operand, b, c.operand],
            _ => {
                let (op, args) = self.operation().expect("an operator");
                args[..op.arity()].to_vec()
            }
        }
    }
}
