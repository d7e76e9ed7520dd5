//! The Jacobian of a function of the table by automatic differentiation
//! ([`crate::diff`]): emitted as `NAME_jacobian` with the function's
//! arguments and one block per argument, each the derivative of the flat
//! output with respect to that argument (a configuration in the tangent
//! space, `NV` columns).

use rbdgen_runtime::{integrate, Data, InputError, Model};

use crate::diff::{jacobian, substitute_zero, Mode};
use crate::functions::{Dim, Function, Output};
use crate::graph::{Graph, NodeId};
use crate::trace::{trace, Expr, Traced};

/// The columns of the block of an argument of dimension `dim`: `NV` for a
/// configuration (the tangent space), `None` for a scalar argument (the block
/// drops that axis), the argument's own length otherwise.
fn columns(dim: Dim) -> Option<Dim> {
    match dim {
        Dim::Nq => Some(Dim::Nv),
        Dim::Scalar => None,
        d => Some(d),
    }
}

/// The output of `function`'s Jacobian for `model`: a tuple of one block per
/// argument of [`Function::args`] (a single block for a function of one
/// argument); a block is `[[f64; cols]; rows]` with a row per output scalar
/// (flattened row-major for matrix and tuple outputs), a vector when the
/// output or the argument is a scalar, a scalar when both are.
pub fn jacobian_output(function: Function, model: &Model) -> Output {
    let spec = function.spec();
    let rows = match spec.output {
        Output::Scalar => None,
        Output::Vector(d) => Some(d),
        o => Some(Dim::Fixed(o.len(model))),
    };
    let blocks: Vec<Output> = function
        .args(model)
        .iter()
        .map(|(_, dim)| match (rows, columns(*dim)) {
            (None, None) => Output::Scalar,
            (Some(d), None) | (None, Some(d)) => Output::Vector(d),
            (Some(r), Some(c)) => Output::Matrix(r, c),
        })
        .collect();
    if blocks.len() == 1 {
        return blocks[0];
    }
    // The table's tuples are static; a Jacobian's is made once per module.
    Output::Tuple(Box::leak(blocks.into_boxed_slice()))
}

/// `function`'s Jacobian for `model` (one frame of a per-frame function),
/// traced: `function` is traced at `integrate(q, δ)` for each configuration
/// argument `q`, differentiated with respect to `δ` and the other arguments
/// in the mode [`Mode::for_shape`] picks (both, keeping the one with
/// fewer operations, where it picks none), and `δ` set to zero. The outputs
/// are the blocks of [`jacobian_output`] one after the other, each row-major.
///
/// # Errors
/// As [`Function::evaluate`].
pub fn trace_jacobian(
    model: &Model,
    function: Function,
    frame: Option<usize>,
) -> Result<Traced, InputError> {
    let dims: Vec<Dim> = function.args(model).iter().map(|(_, d)| *d).collect();
    let all: Vec<usize> = (0..dims.len()).collect();
    let mut at = trace_at_tangent(model, &dims, &all, |data, x| {
        function.evaluate(model, data, x, frame)
    })?;
    let j = jacobian_by_shape(&mut at.graph, &at.outputs, &at.wrt);
    let flat = blocks(&j, &at.widths);
    let (graph, outputs) = substitute_zero(&at.graph, &flat, at.kept);
    Ok(Traced { graph, outputs })
}

/// A function traced for differentiation: its graph and outputs, the nodes
/// to differentiate with respect to (`δ` for a configuration, the inputs
/// otherwise), the width of each differentiated argument, and the number of
/// the function's own inputs (those after them, the `δ`, are set to zero at
/// the end by [`substitute_zero`]).
pub(crate) struct AtTangent {
    pub(crate) graph: Graph,
    pub(crate) outputs: Vec<NodeId>,
    pub(crate) wrt: Vec<NodeId>,
    pub(crate) widths: Vec<usize>,
    pub(crate) kept: u32,
}

/// Traces `f` on arguments of dimensions `dims`, each configuration
/// argument of `wrt` (indices into `dims`) replaced by `integrate(q, δ)`
/// with `δ` a new input.
///
/// # Errors
/// What `f` or `integrate` returns.
pub(crate) fn trace_at_tangent(
    model: &Model,
    dims: &[Dim],
    wrt: &[usize],
    f: impl FnOnce(&mut Data<Expr>, &[Vec<Expr>]) -> Result<Vec<Expr>, InputError>,
) -> Result<AtTangent, InputError> {
    let lens: Vec<usize> = dims.iter().map(|d| d.len(model)).collect();
    let configurations: Vec<usize> = wrt
        .iter()
        .copied()
        .filter(|&k| dims[k] == Dim::Nq)
        .collect();
    let all_lens: Vec<usize> = lens
        .iter()
        .copied()
        .chain(configurations.iter().map(|_| model.nv))
        .collect();
    let mut refused = None;
    let traced = trace(&all_lens, |x| {
        let (x, deltas) = x.split_at(dims.len());
        let mut at = x.to_vec();
        for (&k, delta) in configurations.iter().zip(deltas) {
            match integrate(model, &x[k], delta) {
                Ok(q) => at[k] = q,
                Err(e) => refused = Some(e),
            }
        }
        let mut data = Data::<Expr>::new(model);
        f(&mut data, &at).unwrap_or_else(|e| {
            refused = Some(e);
            Vec::new()
        })
    });
    if let Some(e) = refused {
        return Err(e);
    }
    let kept: usize = lens.iter().sum();
    let mut offsets = Vec::with_capacity(lens.len());
    let mut start = 0;
    for len in &lens {
        offsets.push(start);
        start += len;
    }
    let mut nodes = Vec::new();
    let mut widths = Vec::new();
    for &k in wrt {
        let (first, width) = match configurations.iter().position(|&c| c == k) {
            Some(i) => (kept + i * model.nv, model.nv),
            None => (offsets[k], lens[k]),
        };
        widths.push(width);
        for i in first..first + width {
            nodes.push(traced.graph.input(i as u32).expect("every input is a node"));
        }
    }
    Ok(AtTangent {
        graph: traced.graph,
        outputs: traced.outputs,
        wrt: nodes,
        widths,
        kept: kept as u32,
    })
}

/// The Jacobian of `outputs` with respect to `wrt` in the mode
/// [`Mode::for_shape`] picks, or, where it picks none, in both modes,
/// keeping the one with fewer operations.
pub(crate) fn jacobian_by_shape(
    graph: &mut Graph,
    outputs: &[NodeId],
    wrt: &[NodeId],
) -> Vec<Vec<NodeId>> {
    if let Some(mode) = Mode::for_shape(outputs.len(), wrt.len()) {
        return jacobian(graph, outputs, wrt, mode);
    }
    let mut best: Option<(usize, Graph, Vec<Vec<NodeId>>)> = None;
    for mode in [Mode::Forward, Mode::Reverse] {
        let mut g = graph.clone();
        let j = jacobian(&mut g, outputs, wrt, mode);
        let ops = g.op_counts(&j.concat()).total();
        if best.as_ref().is_none_or(|b| ops < b.0) {
            best = Some((ops, g, j));
        }
    }
    let (_, g, j) = best.expect("two modes tried");
    *graph = g;
    j
}

/// The Jacobian `j` (a row per output) as blocks of columns of `widths`, one
/// after the other, each row-major.
pub(crate) fn blocks(j: &[Vec<NodeId>], widths: &[usize]) -> Vec<NodeId> {
    let mut flat = Vec::with_capacity(j.iter().map(Vec::len).sum());
    let mut column = 0;
    for width in widths {
        for row in j {
            flat.extend_from_slice(&row[column..column + width]);
        }
        column += width;
    }
    flat
}
