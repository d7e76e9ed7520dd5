//! The expression graph: a hash-consed DAG whose children precede their parents,
//! folding constants and neutral elements as nodes are built.

use std::collections::HashMap;

use crate::ops::{next_operand, operand_type, pad, Operator, MAX_ARITY};

/// Index of a node in its [`Graph`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// Operation counts of the part of a graph that some outputs reach.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OpCounts {
    /// Additions and subtractions.
    pub add: usize,
    /// Multiplications.
    pub mul: usize,
    /// Divisions.
    pub div: usize,
    /// Negations.
    pub neg: usize,
    /// Square roots.
    pub sqrt: usize,
    /// Sines, cosines and arc tangents.
    pub trig: usize,
    /// Selections (`if c > 0 { a } else { b }`).
    pub select: usize,
    /// Of [`OpCounts::total`], the operations a loop runs beyond its first
    /// iteration: executed, but not written out again (the column solve of
    /// a function emitted in its column form, [`crate::Options::unroll_limit`]).
    pub looped: usize,
    /// Of [`OpCounts::total`], the operations computed in the other lanes
    /// of a vector operation: executed, but written out once for up to four
    /// limbs (a function emitted with its limbs side by side,
    /// [`crate::limbs`]).
    pub in_lanes: usize,
}

impl OpCounts {
    /// All arithmetic operations.
    pub fn total(&self) -> usize {
        self.add + self.mul + self.div + self.neg + self.sqrt + self.trig + self.select
    }

    /// An estimate of the function's machine code in bytes on x86-64 with
    /// `-C target-cpu=native` (AVX2, FMA): [`BYTES_PER_OP`] per operation.
    /// Straight-line code's size grows with its operation count; for big
    /// functions it decides speed as much as the count does, once it exceeds
    /// the instruction caches (32 KiB of L1 instruction cache per core, and
    /// 0.5 to 2 MiB of L2, on the development machines).
    pub fn estimated_code_bytes(&self) -> usize {
        self.written() * BYTES_PER_OP
    }

    /// The operations written out in the code: [`OpCounts::total`] less
    /// [`OpCounts::looped`] and [`OpCounts::in_lanes`].
    pub fn written(&self) -> usize {
        self.total() - self.looped - self.in_lanes
    }

    /// `about N KiB of machine code`: [`OpCounts::estimated_code_bytes`] in
    /// whole KiB (rounded up), as `rbdgen info --ops` and the generated
    /// header print it.
    pub fn code_size_text(&self) -> String {
        format!(
            "about {} KiB of machine code",
            self.estimated_code_bytes().div_ceil(1024)
        )
    }
}

/// Bytes of x86-64 machine code per operation of straight-line generated
/// code, from the symbol sizes of the bench binaries (`-C target-cpu=native`,
/// opt-level 3): Go2+Z1's `rnea` 7.4, `crba` 8.1, `aba` 6.3, `minverse` 8.3,
/// Go2+Z1's and G1's `contact_dynamics_derivatives` 8.1 and 8.0. Spills of
/// temporaries to the stack, not the arithmetic, make most of it.
pub const BYTES_PER_OP: usize = 8;

impl std::ops::AddAssign for OpCounts {
    fn add_assign(&mut self, o: OpCounts) {
        self.add += o.add;
        self.mul += o.mul;
        self.div += o.div;
        self.neg += o.neg;
        self.sqrt += o.sqrt;
        self.trig += o.trig;
        self.select += o.select;
        self.looped += o.looped;
        self.in_lanes += o.in_lanes;
    }
}

impl std::fmt::Display for OpCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} ops ({} add/sub, {} mul, {} div, {} neg, {} sqrt, {} trig, {} select)",
            self.total(),
            self.add,
            self.mul,
            self.div,
            self.neg,
            self.sqrt,
            self.trig,
            self.select
        )?;
        if self.looped > 0 && self.in_lanes > 0 {
            write!(
                f,
                ", {} of them written out (a loop runs the rest, and vector lanes the limbs side \
                 by side)",
                self.written()
            )?;
        } else if self.looped > 0 {
            write!(
                f,
                ", {} of them written out (a loop runs the rest)",
                self.written()
            )?;
        } else if self.in_lanes > 0 {
            write!(
                f,
                ", {} of them written out (the limbs side by side, in vector lanes)",
                self.written()
            )?;
        }
        Ok(())
    }
}

/// A hash-consed DAG. `nodes[i]`'s children all have ids below `i`.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    nodes: Vec<Node>,
    index: HashMap<Node, NodeId>,
    /// The first non-finite constant met while tracing, if any.
    non_finite: Option<String>,
    /// Inputs created so far; the next one gets this number.
    inputs: u32,
}

impl Graph {
    /// An empty graph.
    pub fn new() -> Self {
        Self::default()
    }

    /// The nodes, children before parents.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The node behind `id`.
    pub fn node(&self, id: NodeId) -> Node {
        self.nodes[id.0 as usize]
    }

    /// The constant value of `id`, if it is a constant.
    pub fn constant_value(&self, id: NodeId) -> Option<f64> {
        match self.node(id) {
            Node::Const(bits) => Some(f64::from_bits(bits)),
            _ => None,
        }
    }

    /// Why the trace produced a non-finite constant (a division by a zero
    /// constant, say), if it did.
    pub fn non_finite(&self) -> Option<&str> {
        self.non_finite.as_deref()
    }

    /// A new input, numbered after every earlier one.
    pub fn new_input(&mut self) -> NodeId {
        self.inputs += 1;
        self.intern(Node::Input(self.inputs - 1))
    }

    /// The node of input number `k`, if the graph has it.
    pub fn input(&self, k: u32) -> Option<NodeId> {
        self.index.get(&Node::Input(k)).copied()
    }

    /// How many inputs have been created ([`Graph::new_input`]).
    pub fn input_count(&self) -> u32 {
        self.inputs
    }

    /// The node for the constant `x`.
    pub fn constant(&mut self, x: f64) -> NodeId {
        if !x.is_finite() && self.non_finite.is_none() {
            self.non_finite = Some(format!("a constant evaluated to {x}"));
        }
        // One zero: -0.0 and 0.0 behave alike in every folded use.
        let x = if x == 0.0 { 0.0 } else { x };
        self.intern(Node::Const(x.to_bits()))
    }

    fn intern(&mut self, node: Node) -> NodeId {
        if let Some(&id) = self.index.get(&node) {
            return id;
        }
        let id = NodeId(u32::try_from(self.nodes.len()).expect("graph exceeds u32 nodes"));
        self.nodes.push(node);
        self.index.insert(node, id);
        id
    }

    /// Adds `node`, or returns an equal node, after folding constants and
    /// neutral elements (`x·0 = 0`, `x·1 = x`, `x + 0 = x`, `--x = x`,
    /// `x - x = 0`, `(x - y) + (y - x) = 0`,
    /// selections with a constant condition or equal sides) and ordering the
    /// operands of `+` and `·`.
    pub fn add(&mut self, node: Node) -> NodeId {
        let c = |g: &Self, id| g.constant_value(id);
        if !matches!(node, Node::Const(_) | Node::Input(_))
            && node.children().all(|id| c(self, id).is_some())
        {
            let value = node.apply(|id| c(self, id).unwrap_or(f64::NAN), |_| f64::NAN);
            return self.constant(value);
        }
        let neg_of = |g: &Self, id| match g.node(id) {
            Node::Neg(x) => Some(x),
            _ => None,
        };
        match node {
            Node::Neg(a) => {
                if let Some(x) = neg_of(self, a) {
                    return x;
                }
                if let Node::Sub(x, y) = self.node(a) {
                    return self.add(Node::Sub(y, x));
                }
            }
            Node::Add(a, b) => {
                if c(self, a) == Some(0.0) {
                    return b;
                }
                // (x - y) + (y - x) = 0, as x - x is (the top of a v × v).
                if let (Node::Sub(x, y), Node::Sub(y2, x2)) = (self.node(a), self.node(b)) {
                    if x == x2 && y == y2 {
                        return self.constant(0.0);
                    }
                }
                if c(self, b) == Some(0.0) {
                    return a;
                }
                if let Some(y) = neg_of(self, b) {
                    return self.add(Node::Sub(a, y));
                }
                if let Some(x) = neg_of(self, a) {
                    return self.add(Node::Sub(b, x));
                }
                return self.intern(Node::Add(a.min(b), a.max(b)));
            }
            Node::Sub(a, b) => {
                if c(self, b) == Some(0.0) {
                    return a;
                }
                if c(self, a) == Some(0.0) {
                    return self.add(Node::Neg(b));
                }
                if a == b {
                    return self.constant(0.0);
                }
                if let Some(y) = neg_of(self, b) {
                    return self.add(Node::Add(a, y));
                }
            }
            Node::Mul(a, b) => {
                for (k, other) in [(a, b), (b, a)] {
                    match c(self, k) {
                        Some(0.0) => return self.constant(0.0),
                        Some(1.0) => return other,
                        Some(-1.0) => return self.add(Node::Neg(other)),
                        Some(x) => {
                            if let Some(y) = neg_of(self, other) {
                                let k = self.constant(-x);
                                return self.add(Node::Mul(k, y));
                            }
                        }
                        None => {}
                    }
                }
                if let (Some(x), Some(y)) = (neg_of(self, a), neg_of(self, b)) {
                    return self.add(Node::Mul(x, y));
                }
                if let Some(x) = neg_of(self, a) {
                    let m = self.add(Node::Mul(x, b));
                    return self.add(Node::Neg(m));
                }
                if let Some(y) = neg_of(self, b) {
                    let m = self.add(Node::Mul(a, y));
                    return self.add(Node::Neg(m));
                }
                return self.intern(Node::Mul(a.min(b), a.max(b)));
            }
            Node::Div(a, b) => {
                if c(self, b) == Some(1.0) {
                    return a;
                }
                if c(self, a) == Some(0.0) {
                    return self.constant(0.0);
                }
                if let Some(y) = c(self, b) {
                    // Division by a constant becomes multiplication by its reciprocal
                    // only when that is exact (a power of two).
                    let r = 1.0 / y;
                    if r.is_finite() && y.abs().log2().fract() == 0.0 {
                        let k = self.constant(r);
                        return self.add(Node::Mul(a, k));
                    }
                }
            }
            Node::Select(cond, a, b) => {
                if a == b {
                    return a;
                }
                if let Some(x) = c(self, cond) {
                    return if x > 0.0 { a } else { b };
                }
            }
            _ => {}
        }
        self.intern(node)
    }

    /// Every node that `outputs` depend on, in id order (a valid schedule).
    pub fn reachable(&self, outputs: &[NodeId]) -> Vec<bool> {
        let mut live = vec![false; self.nodes.len()];
        for o in outputs {
            live[o.0 as usize] = true;
        }
        for i in (0..self.nodes.len()).rev() {
            if live[i] {
                for c in self.nodes[i].children() {
                    live[c.0 as usize] = true;
                }
            }
        }
        live
    }

    /// For each node, the id of the last live node that uses it (`usize::MAX`
    /// for an output, which is used at the end; 0 for an unused node), given
    /// `live = self.reachable(outputs)`.
    pub fn last_use(&self, outputs: &[NodeId], live: &[bool]) -> Vec<usize> {
        let mut last = vec![0usize; self.nodes.len()];
        for (i, node) in self.nodes.iter().enumerate() {
            if live[i] {
                for c in node.children() {
                    last[c.0 as usize] = i;
                }
            }
        }
        for o in outputs {
            last[o.0 as usize] = usize::MAX;
        }
        last
    }

    /// Operation counts of what `outputs` depend on.
    pub fn op_counts(&self, outputs: &[NodeId]) -> OpCounts {
        let mut n = OpCounts::default();
        for (node, live) in self.nodes.iter().zip(self.reachable(outputs)) {
            if !live {
                continue;
            }
            if let Some((op, _)) = node.operation() {
                n.count(op);
            }
        }
        n
    }
}

/// The graph's node, its conversions and its value, and the count of its operation, from the operator list.
macro_rules! node_enum {
    ($($(#[doc = $doc:literal])* $name:ident($($arg:ident),+) [$sym:literal, $egg:ty, $class:ident,
        $spelling:expr, $wide:expr, $commutative:expr, |$x:ident| $value:expr])*) => {
        /// One operation. Constants are stored by their bits so that nodes
        /// hash exactly.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Node {
            /// A finite constant (`f64::to_bits`).
            Const(u64),
            /// Input number `k` of the traced function.
            Input(u32),
            $($(#[doc = $doc])* $name($(operand_type!($arg, NodeId)),+),)*
        }

        impl Node {
            /// The operator and its operands (the first [`Operator::arity`]
            /// of the array), `None` for a constant or an input.
            pub fn operation(&self) -> Option<(Operator, [NodeId; MAX_ARITY])> {
                match *self {
                    Node::Const(_) | Node::Input(_) => None,
                    $(Node::$name($($arg),+) => Some((Operator::$name, pad([$($arg),+]))),)*
                }
            }

            /// The node applying `op` to `operands` (as many as its arity).
            pub fn from_operation(op: Operator, operands: &[NodeId]) -> Node {
                let mut it = operands.iter().copied();
                match op {
                    $(Operator::$name => Node::$name($(next_operand!(it, $arg)),+),)*
                }
            }

            /// The same operation on other operands: `f` maps each child.
            pub fn map_children(&self, mut f: impl FnMut(NodeId) -> NodeId) -> Node {
                match *self {
                    Node::Const(_) | Node::Input(_) => *self,
                    $(Node::$name($($arg),+) => Node::$name($(f($arg)),+),)*
                }
            }

            /// The value of the node given its operands' values (the numeric
            /// semantics every other pass must agree with). An operand is read
            /// only if the value needs it (one side of a selection).
            pub fn apply(&self, x: impl Fn(NodeId) -> f64, input: impl Fn(u32) -> f64) -> f64 {
                match *self {
                    Node::Const(bits) => f64::from_bits(bits),
                    Node::Input(k) => input(k),
                    $(Node::$name($($arg),+) => {
                        let $x = &x;
                        $value
                    })*
                }
            }
        }

        impl OpCounts {
            /// Counts one operation of `op` in its class.
            fn count(&mut self, op: Operator) {
                match op {
                    $(Operator::$name => self.$class += 1,)*
                }
            }
        }
    };
}

crate::ops::for_each_operator!(node_enum);

impl Node {
    /// The operands of the node.
    pub fn children(&self) -> impl Iterator<Item = NodeId> {
        let (ids, n) = match self.operation() {
            Some((op, ids)) => (ids, op.arity()),
            None => ([NodeId(0); MAX_ARITY], 0),
        };
        ids.into_iter().take(n)
    }
}
