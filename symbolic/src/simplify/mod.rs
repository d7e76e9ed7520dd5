//! Simplification with egg, on top of hash-consing and construction-time
//! folding: equality saturation over a named rule table ([`rules::rules`]),
//! constant folding as an e-class analysis ([`ConstantFold`]) and a DAG-aware
//! extraction ([`extract::DagChoice`]).
//!
//! The graph is simplified in windows of consecutive operations (in id order,
//! so children precede parents): operands from earlier windows enter as opaque
//! leaves, the window's nodes become one e-graph, and the nodes that later
//! windows or the outputs use are the roots extracted and rebuilt through
//! [`Graph::add`] (so folding and hash-consing apply across windows). Windows
//! keep each e-graph small. Every run is bounded by iteration and node counts,
//! never by time, and egg's `deterministic` feature makes the result the same
//! from run to run. A window whose extraction is not cheaper than its original
//! nodes is kept as it was, so simplification never adds operations.

pub mod analysis;
pub mod extract;
pub mod rules;

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

use egg::{EGraph, Id, LanguageChildren, Runner, StopReason, Symbol};

pub use analysis::ConstantFold;
use extract::DagChoice;

use crate::graph::{Graph, Node, NodeId};

/// A finite constant, hashed and ordered by its bits (`-0.0` is stored as `0.0`,
/// as in [`Graph::constant`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Constant(u64);

impl Constant {
    /// The constant `x` (which should be finite).
    pub fn new(x: f64) -> Self {
        Self(if x == 0.0 { 0.0f64 } else { x }.to_bits())
    }

    /// Its value.
    pub fn value(self) -> f64 {
        f64::from_bits(self.0)
    }
}

impl FromStr for Constant {
    type Err = String;

    /// A finite decimal number; anything else is not a constant.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(Constant::new(x)),
            _ => Err(format!("{s} is not a finite number")),
        }
    }
}

impl fmt::Display for Constant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.value())
    }
}

use crate::ops::Operator;

/// Bounds of a simplification run (counts only, never time).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Operations per window.
    pub window: usize,
    /// egg's iteration limit per window.
    pub iter_limit: usize,
    /// egg's e-node limit per window.
    pub node_limit: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            window: 2000,
            iter_limit: 6,
            node_limit: 20_000,
        }
    }
}

/// A simplified graph.
#[derive(Clone, Debug)]
pub struct Simplified {
    /// The new graph (inputs keep their numbers).
    pub graph: Graph,
    /// The outputs, in the order given.
    pub outputs: Vec<NodeId>,
    /// Why egg stopped in each window.
    pub stops: Stops,
}

/// Why egg's runs stopped, counted over windows. The runner is bounded by
/// [`Limits`]' counts and has no time limit, so a run ends saturated or at
/// one of the two limits, and the counts are the same on every machine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stops {
    /// Windows where no rule applied any more (saturation).
    pub saturated: usize,
    /// Windows stopped at [`Limits::iter_limit`].
    pub iteration_limit: usize,
    /// Windows stopped at [`Limits::node_limit`].
    pub node_limit: usize,
}

impl Stops {
    /// The number of windows.
    pub fn total(&self) -> usize {
        self.saturated + self.iteration_limit + self.node_limit
    }

    /// Counts one run that stopped for `reason`.
    fn count(&mut self, reason: Option<&StopReason>) {
        match reason {
            Some(StopReason::Saturated) => self.saturated += 1,
            Some(StopReason::IterationLimit(_)) => self.iteration_limit += 1,
            Some(StopReason::NodeLimit(_)) => self.node_limit += 1,
            // No time limit is set and no hook can stop the runner.
            Some(StopReason::TimeLimit(_) | StopReason::Other(_)) | None => {
                unreachable!("egg's runner stops on saturation or a count limit only")
            }
        }
    }
}

impl std::ops::AddAssign for Stops {
    fn add_assign(&mut self, o: Stops) {
        self.saturated += o.saturated;
        self.iteration_limit += o.iteration_limit;
        self.node_limit += o.node_limit;
    }
}

/// `12 windows: 10 saturated, 2 at the iteration limit, 0 at the node limit`.
impl fmt::Display for Stops {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} windows: {} saturated, {} at the iteration limit, {} at the node limit",
            self.total(),
            self.saturated,
            self.iteration_limit,
            self.node_limit
        )
    }
}

/// Simplifies what `outputs` depend on in `graph`: a new graph with the same
/// values at every input (up to rounding: factoring and `sin² + cos² = 1` are
/// exact in real arithmetic only) and no more operations
/// ([`Graph::op_counts`]).
pub fn simplify(graph: &Graph, outputs: &[NodeId], limits: &Limits) -> Simplified {
    let nodes = graph.nodes();
    let live = graph.reachable(outputs);
    let last_use = graph.last_use(outputs, &live);
    let mut out = Graph::new();
    let mut map: Vec<Option<NodeId>> = vec![None; nodes.len()];
    let mut ops = Vec::new();
    for (i, node) in nodes.iter().enumerate() {
        match node {
            _ if !live[i] => {}
            Node::Const(_) | Node::Input(_) => map[i] = Some(out.add(*node)),
            _ => ops.push(i),
        }
    }
    let mut stops = Stops::default();
    for window in ops.chunks(limits.window.max(1)) {
        let reason = Window {
            graph,
            out: &mut out,
            map: &mut map,
            last_use: &last_use,
        }
        .run(window, limits);
        stops.count(reason.as_ref());
    }
    let outputs = outputs
        .iter()
        .map(|o| map[o.0 as usize].expect("outputs are mapped"))
        .collect();
    Simplified {
        graph: out,
        outputs,
        stops,
    }
}

/// One window's state: the source graph, the graph being built and the map
/// from source nodes to built ones.
struct Window<'a> {
    graph: &'a Graph,
    out: &'a mut Graph,
    map: &'a mut Vec<Option<NodeId>>,
    last_use: &'a [usize],
}

impl Window<'_> {
    fn mapped(&self, id: NodeId) -> NodeId {
        self.map[id.0 as usize].expect("operands precede their users")
    }

    /// Simplifies the operations `window` (consecutive live ids, ascending):
    /// replaces them by the extraction when that is cheaper. Returns why
    /// egg's runner stopped.
    fn run(&mut self, window: &[usize], limits: &Limits) -> Option<StopReason> {
        let mut egraph = EGraph::<Math, ConstantFold>::default();
        let mut local: HashMap<usize, Id> = HashMap::new();
        let mut leaves: HashMap<Symbol, NodeId> = HashMap::new();
        for &i in window {
            let node = self.graph.nodes()[i];
            let mut operand = |id: NodeId, egraph: &mut EGraph<Math, ConstantFold>| {
                if let Some(&e) = local.get(&(id.0 as usize)) {
                    return e;
                }
                let new = self.mapped(id);
                match self.out.constant_value(new) {
                    Some(x) => egraph.add(Math::Const(Constant::new(x))),
                    None => {
                        let sym = Symbol::from(format!("n{}", new.0));
                        leaves.insert(sym, new);
                        egraph.add(Math::Leaf(sym))
                    }
                }
            };
            let (op, args) = node.operation().expect("windows hold operations");
            let children: Vec<Id> = (args[..op.arity()].iter())
                .map(|&a| operand(a, &mut egraph))
                .collect();
            let math = Math::from_operation(op, &children);
            let id = egraph.add(math);
            local.insert(i, id);
        }
        let end = *window.last().expect("windows are not empty");
        let roots: Vec<usize> = window
            .iter()
            .copied()
            .filter(|&i| self.last_use[i] > end)
            .collect();
        let runner = Runner::default()
            .with_egraph(egraph)
            .with_iter_limit(limits.iter_limit)
            .with_node_limit(limits.node_limit)
            // Bounded by counts only: a time limit would make the output
            // depend on the machine.
            .with_time_limit(Duration::from_secs(u64::MAX / 4))
            .run(&rules::rules());
        let reason = runner.stop_reason.clone();
        let egraph = &runner.egraph;
        let choice = DagChoice::new(egraph);
        let root_classes: Vec<Id> = roots.iter().map(|i| egraph.find(local[i])).collect();
        let order = schedule(&choice, &root_classes);
        match order {
            Some((order, cost)) if cost < window.len() => {
                let mut built: HashMap<Id, NodeId> = HashMap::new();
                for class in order {
                    let math = choice.best[usize::from(class)]
                        .as_ref()
                        .expect("scheduled classes have a choice");
                    let new = self.rebuild(math, &built, &leaves);
                    built.insert(class, new);
                }
                for (&i, class) in roots.iter().zip(&root_classes) {
                    self.map[i] = Some(built[class]);
                }
            }
            _ => {
                for &i in window {
                    let node = self.graph.nodes()[i];
                    let new = node.map_children(|c| self.mapped(c));
                    self.map[i] = Some(self.out.add(new));
                }
            }
        }
        reason
    }

    /// The chosen e-node `math` as a node of the graph being built.
    fn rebuild(
        &mut self,
        math: &Math,
        built: &HashMap<Id, NodeId>,
        leaves: &HashMap<Symbol, NodeId>,
    ) -> NodeId {
        let node = match math {
            Math::Const(c) => return self.out.constant(c.value()),
            Math::Leaf(s) => return leaves[s],
            op => node_of(op, |i| built[&i]).expect("an operation"),
        };
        self.out.add(node)
    }
}

/// The graph node of the operation `math`, its operands (e-class ids) named
/// by `f`; `None` for a constant or a leaf, which are no operations.
fn node_of(math: &Math, f: impl Fn(Id) -> NodeId) -> Option<Node> {
    let (op, children) = math.operation()?;
    let operands: Vec<NodeId> = children.iter().map(|&i| f(i)).collect();
    Some(Node::from_operation(op, &operands))
}

/// The classes that `roots` reach through the chosen nodes, operands first,
/// and the number of operations among them; `None` if a class has no choice
/// or the choices form a cycle.
fn schedule(choice: &DagChoice, roots: &[Id]) -> Option<(Vec<Id>, usize)> {
    use egg::Language;
    // 0: unseen, 1: on the stack, 2: scheduled.
    let mut state: HashMap<Id, u8> = HashMap::new();
    let mut order = Vec::new();
    let mut cost = 0;
    for &root in roots {
        let mut stack = vec![(root, false)];
        while let Some((class, expanded)) = stack.pop() {
            let math = choice.best.get(usize::from(class))?.as_ref()?;
            if expanded {
                state.insert(class, 2);
                order.push(class);
                cost += usize::from(!matches!(math, Math::Const(_) | Math::Leaf(_)));
                continue;
            }
            match state.get(&class) {
                Some(2) => continue,
                Some(_) => return None,
                None => {}
            }
            state.insert(class, 1);
            stack.push((class, true));
            for &child in math.children().iter().rev() {
                match state.get(&child) {
                    Some(2) => {}
                    Some(_) => return None,
                    None => stack.push((child, false)),
                }
            }
        }
    }
    Some((order, cost))
}

/// The e-graph language from the operator list.
macro_rules! math_language {
    ($($(#[doc = $doc:literal])* $name:ident($($arg:ident),+) [$sym:literal, $egg:ty, $class:ident,
        $spelling:expr, $wide:expr, $commutative:expr, |$x:ident| $value:expr])*) => {
        /// The e-graph language (egg's `define_language!` gives its variants no
        /// docs).
        #[allow(missing_docs)]
        mod language {
            use egg::{define_language, Id, Symbol};

            use super::Constant;

            define_language! {
                /// The e-graph language: [`super::Node`]'s operations (with
                /// [`super::Node::apply`]'s semantics, by their
                /// [`super::Operator::symbol`]), constants by bits (`Const`)
                /// and every node outside the window as a leaf symbol (`Leaf`,
                /// `n` and its id in the graph being built).
                pub enum Math {
                    $($sym = $name($egg),)*
                    Const(Constant),
                    Leaf(Symbol),
                }
            }
        }
        pub use language::Math;

        impl Math {
            /// The e-node applying `op` to the e-classes `children`.
            pub fn from_operation(op: Operator, children: &[Id]) -> Math {
                match op {
                    $(Operator::$name => Math::$name(LanguageChildren::from_vec(children.to_vec())),)*
                }
            }

            /// The operator and its operands' e-classes, `None` for a constant
            /// or a leaf.
            pub fn operation(&self) -> Option<(Operator, &[Id])> {
                match self {
                    $(Math::$name(ids) => Some((Operator::$name, LanguageChildren::as_slice(ids))),)*
                    Math::Const(_) | Math::Leaf(_) => None,
                }
            }
        }
    };
}

crate::ops::for_each_operator!(math_language);
