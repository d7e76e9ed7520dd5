//! The symbolic scalar: running a generic algorithm on [`Expr`] records it.

use std::cell::RefCell;
use std::ops::{Add, Div, Mul, Neg, Sub};

use rbdgen_runtime::Scalar;

use crate::graph::{Graph, Node, NodeId};

thread_local! {
    static GRAPH: RefCell<Option<Graph>> = const { RefCell::new(None) };
}

fn with_graph<R>(f: impl FnOnce(&mut Graph) -> R) -> R {
    GRAPH.with(|g| {
        f(g.borrow_mut()
            .as_mut()
            .expect("Expr used outside of trace()"))
    })
}

/// A handle to a node of the graph being traced on this thread. Only valid
/// inside the closure given to [`trace`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Expr(pub NodeId);

impl Expr {
    fn node(node: Node) -> Expr {
        Expr(with_graph(|g| g.add(node)))
    }
}

/// What a trace produced: the graph and its named argument lengths.
#[derive(Clone, Debug)]
pub struct Traced {
    /// The graph.
    pub graph: Graph,
    /// The output nodes, flattened row-major.
    pub outputs: Vec<NodeId>,
}

/// Runs `f` on symbolic inputs and records the graph of its outputs.
///
/// `inputs` gives the length of each argument; `f` receives one `Vec<Expr>` per
/// argument, inputs numbered consecutively across arguments, and returns the
/// outputs flattened.
pub fn trace(inputs: &[usize], f: impl FnOnce(&[Vec<Expr>]) -> Vec<Expr>) -> Traced {
    GRAPH.with(|g| {
        let previous = g.borrow_mut().replace(Graph::new());
        assert!(previous.is_none(), "trace() is not reentrant");
    });
    let args: Vec<Vec<Expr>> = inputs.iter().map(|&n| fresh_inputs(n)).collect();
    let outputs = f(&args);
    let graph = GRAPH
        .with(|g| g.borrow_mut().take())
        .expect("graph present");
    Traced {
        graph,
        outputs: outputs.into_iter().map(|e| e.0).collect(),
    }
}

/// `n` new inputs of the trace in progress, numbered after every earlier one.
fn fresh_inputs(n: usize) -> Vec<Expr> {
    (0..n).map(|_| Expr(with_graph(Graph::new_input))).collect()
}

/// [`trace`] of a fallible `f`: the trace, or `f`'s error (the runtime's
/// refusal of the traced arguments).
pub fn try_trace<E>(
    inputs: &[usize],
    f: impl FnOnce(&[Vec<Expr>]) -> Result<Vec<Expr>, E>,
) -> Result<Traced, E> {
    let mut refused = None;
    let traced = trace(inputs, |x| {
        f(x).unwrap_or_else(|e| {
            refused = Some(e);
            Vec::new()
        })
    });
    match refused {
        Some(e) => Err(e),
        None => Ok(traced),
    }
}

impl Scalar for Expr {
    fn constant(value: f64) -> Self {
        Expr(with_graph(|g| g.constant(value)))
    }

    fn sin_cos(self) -> (Self, Self) {
        (Expr::node(Node::Sin(self.0)), Expr::node(Node::Cos(self.0)))
    }

    fn sqrt(self) -> Self {
        Expr::node(Node::Sqrt(self.0))
    }

    fn atan2(self, x: Self) -> Self {
        Expr::node(Node::Atan2(self.0, x.0))
    }

    fn select(condition: Self, if_positive: Self, otherwise: Self) -> Self {
        Expr::node(Node::Select(condition.0, if_positive.0, otherwise.0))
    }
}

macro_rules! binary {
    ($trait:ident, $method:ident, $node:ident) => {
        impl $trait for Expr {
            type Output = Expr;
            fn $method(self, rhs: Expr) -> Expr {
                Expr::node(Node::$node(self.0, rhs.0))
            }
        }
    };
}
binary!(Add, add, Add);
binary!(Sub, sub, Sub);
binary!(Mul, mul, Mul);
binary!(Div, div, Div);

impl Neg for Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        Expr::node(Node::Neg(self.0))
    }
}
