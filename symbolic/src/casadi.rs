//! The CasADi export (`rbdgen generate URDF --casadi NAME -o NAME.py`): a
//! Python module whose functions build each generated function's traced
//! graph as CasADi expressions, so that `casadi.jacobian`, `hessian`,
//! CasADi's own C code generation, `casadi.Opti` and acados' models work on
//! rbdgen's dynamics.
//!
//! Each function is traced straight-line (no column form: CasADi has no use
//! for the loops that keep rustc's build short), checked and simplified as
//! for the Rust output ([`Options::simplify`]), so its constants are folded
//! the same way; then every live node of the graph becomes one Python
//! statement on CasADi's `SX` scalars (`t7 = t3 * t5`, `t8 = _sin(x[4])`),
//! in node-id order, which is topological. Nothing loops over the joints at
//! call time: the statements are the function. Operators and their CasADi
//! spelling ([`Node`]): `+ - * /` and unary `-`, `casadi.sin`, `cos`,
//! `sqrt`, `atan2`, and `casadi.if_else(c > 0, a, b)` for
//! [`Node::Select`]. An output that is the constant zero is a structural zero
//! of the CasADi result (its sparsity says so).
//!
//! The module's public functions take `SX` (the graph is built on them),
//! `MX` (a call of the ready `casadi.Function`, one node of the MX graph) or
//! numbers (the `casadi.Function` evaluated, `DM` results). Shapes: a vector
//! is a column `(n, 1)`, a matrix of the Rust API (`[[f64; cols]; rows]`,
//! row-major) is a CasADi matrix `(rows, cols)`, a scalar `(1, 1)`, `fext`
//! `(NJOINTS, 6)`, a placement `(4, 4)`. Outputs are named as in the README's
//! function table ([`output_names`]).

use std::fmt::Write as _;

use rbdgen_runtime::{Data, Model};

use crate::api::selected_frames;
use crate::error::GenerateError;
use crate::functions::{Dim, Function, Output};
use crate::graph::{Graph, Node, NodeId, OpCounts};
use crate::jacobian::{jacobian_output, trace_jacobian};
use crate::ops::Spelling;
use crate::options::Options;
use crate::prepare::{build_model, check, simplified};
use crate::simplify::Stops;
use crate::trace::{try_trace, Expr, Traced};
use crate::user::UserFunction;

/// The CasADi module of a model: its Python text and what it holds.
#[derive(Clone, Debug)]
pub struct CasadiModule {
    /// The Python module's source, byte-identical from run to run.
    pub source: String,
    /// The operation count of each exported function (summed over the frames
    /// of a per-frame function), keyed by its name (`rnea`,
    /// `rnea_jacobian`), in the module's order: the number of arithmetic
    /// statements of its Python body, which CasADi's `SX` graph holds at
    /// most (CasADi may simplify further, never adds).
    pub op_counts: Vec<(String, OpCounts)>,
    /// The model's physical warnings ([`Model::physical_warnings`]), one
    /// message per item.
    pub warnings: Vec<String>,
}

/// One exported function: its name, arguments and outputs with their CasADi
/// shapes, and its traced graph per frame.
struct Export {
    name: String,
    /// `(name, rows, cols)` per argument.
    inputs: Vec<(String, usize, usize)>,
    /// `(name, rows, cols)` per output.
    outputs: Vec<(String, usize, usize)>,
    /// The doc lines of the function (the table's).
    doc: Vec<String>,
    /// The traced (and simplified) graph, per link frame name for a
    /// per-frame function, under `None` otherwise.
    graphs: Vec<(Option<String>, Traced)>,
    counts: OpCounts,
}

/// The names of `function`'s outputs, in the order of its result (a tuple's
/// parts in order), as the README's function table names them; a function
/// whose table entry names no output gets a name of its own (`oMf` for
/// `frame_placement`, `q_next` for `integrate`).
pub fn output_names(function: Function) -> &'static [&'static str] {
    use Function as F;
    match function {
        F::Rnea | F::RneaFext | F::ContactInverseDynamics => &["tau"],
        F::Crba => &["M"],
        F::Aba | F::AbaFext => &["a"],
        F::FramePlacement => &["oMf"],
        F::NonlinearEffects => &["h"],
        F::GeneralizedGravity => &["g"],
        F::Minverse => &["Minv"],
        F::CenterOfMass => &["com"],
        F::JacobianCenterOfMass => &["Jcom"],
        F::Ccrba => &["Ag", "hg"],
        F::Dccrba => &["dAg"],
        F::KineticEnergy => &["kinetic_energy"],
        F::PotentialEnergy => &["potential_energy"],
        F::FrameJacobianLocal | F::FrameJacobianWorld | F::FrameJacobianLocalWorldAligned => &["J"],
        F::RneaDerivatives | F::RneaDerivativesFext => &["dtau_dq", "dtau_dv", "dtau_da"],
        F::AbaDerivatives | F::AbaDerivativesFext => &["ddq_dq", "ddq_dv", "ddq_dtau"],
        F::StepLinearization | F::ContactStepLinearization | F::ContactStepLinearizationMasked => {
            &["q_next", "v_next", "A", "B"]
        }
        F::ContactStepLinearizationForcesMasked => &[
            "q_next",
            "v_next",
            "A",
            "B",
            "lambda",
            "dlambda_dx",
            "dlambda_du",
        ],
        F::PoseError => &["e", "J_e"],
        F::Integrate => &["q_next"],
        F::Difference => &["dq"],
        F::DIntegrateDq => &["d_integrate_dq"],
        F::DIntegrateDv => &["d_integrate_dv"],
        F::DDifferenceDq0 => &["d_difference_dq0"],
        F::DDifferenceDq1 => &["d_difference_dq1"],
        F::AbaDfext => &["da_dfext"],
        F::FrameJacobianTimeVariationLocal
        | F::FrameJacobianTimeVariationWorld
        | F::FrameJacobianTimeVariationLocalWorldAligned => &["dJ"],
        F::FrameAccelerationDrift => &["local", "local_world_aligned", "classical"],
        F::CentroidalMomentumRate => &["dhg"],
        F::JointTorqueRegressor => &["Y"],
        F::ContactJacobian => &["Jc"],
        F::ContactDrift => &["gamma"],
        F::ContactDynamics | F::ContactDynamicsMasked => &["a", "lambda"],
        F::CenterOfPressure => &["cop"],
        F::FrameVelocityDerivativesLocal | F::FrameVelocityDerivativesLocalWorldAligned => {
            &["dv_dq", "dv_dv"]
        }
        F::FrameAccelerationDerivativesLocal | F::FrameAccelerationDerivativesLocalWorldAligned => {
            &["da_dq", "da_dv", "da_da"]
        }
        F::CentroidalDynamicsDerivatives => &["dh_dq", "dhdot_dq", "dhdot_dv", "dhdot_da"],
        F::ContactDriftDerivatives => &["dgamma_dq", "dgamma_dv"],
        F::ContactDynamicsDerivatives | F::ContactDynamicsDerivativesMasked => &[
            "ddq_dq",
            "ddq_dv",
            "ddq_dtau",
            "dlambda_dq",
            "dlambda_dv",
            "dlambda_dtau",
        ],
        F::ContactInverseDynamicsDerivatives => &["dtau_dq", "dtau_dv", "dtau_da", "dtau_dlambda"],
        F::ImpulseDynamics | F::ImpulseDynamicsMasked => &["v_plus", "impulse"],
        F::ImpulseDynamicsDerivatives | F::ImpulseDynamicsDerivativesMasked => {
            &["dvplus_dq", "dvplus_dv", "dimpulse_dq", "dimpulse_dv"]
        }
    }
}

/// The CasADi shape `(rows, cols)` of an argument of dimension `dim`: a
/// column for a flat argument, the Rust array of rows' shape otherwise.
fn arg_shape(dim: Dim, model: &Model) -> (usize, usize) {
    match dim.row_len() {
        Some(0) => (1, 1),
        Some(cols) => (dim.len(model) / cols, cols),
        None => (dim.len(model), 1),
    }
}

/// The CasADi shapes of an output's parts (one for a non-tuple output).
fn output_shapes(output: Output, model: &Model) -> Vec<(usize, usize)> {
    match output {
        Output::Scalar => vec![(1, 1)],
        Output::Vector(n) => vec![(n.len(model), 1)],
        Output::Matrix(r, c) => vec![(r.len(model), c.len(model))],
        Output::Tuple(parts) => parts
            .iter()
            .flat_map(|p| output_shapes(*p, model))
            .collect(),
    }
}

/// The CasADi module of `urdf` for `options` (its functions, the Jacobians of
/// `options.jacobians`), named `name`; `command` is the command line that
/// regenerates it, quoted in its header.
///
/// # Errors
/// As [`crate::generate_module`]; [`GenerateError::Option`] on `casadi` for a
/// `name` that is not a Python identifier; [`GenerateError::Casadi`] for
/// what the export does not take: `f32` (CasADi computes in `f64`),
/// contact sets (export each set's functions with `contacts` instead), user
/// functions.
pub fn casadi_module(
    urdf: &str,
    options: &Options,
    name: &str,
    command: &str,
) -> Result<CasadiModule, GenerateError> {
    let options = &Options {
        casadi: Some(name.to_string()),
        ..options.clone()
    };
    options.check()?;
    if options.scalar != crate::ScalarType::F64 {
        return Err(GenerateError::Casadi(
            "CasADi's expressions are f64; leave out the f32 scalar".into(),
        ));
    }
    if !options.contact_sets.is_empty() {
        return Err(GenerateError::Casadi(
            "contact sets are not exported; export each set with its contacts as the contact set"
                .into(),
        ));
    }
    if !options.user_functions.is_empty() {
        return Err(GenerateError::Casadi(
            "user functions are not exported".into(),
        ));
    }
    let model = build_model(urdf, options)?;
    let warnings = model
        .physical_warnings()
        .iter()
        .map(ToString::to_string)
        .collect();
    let functions: Vec<Function> = if options.functions.len() == Function::ALL.len() {
        Function::default_set(&model)
    } else {
        options.functions.iter().copied().collect()
    };
    let frames: Vec<(usize, String)> = selected_frames(&model, options)
        .into_iter()
        .map(|(id, f)| (id, f.name.clone()))
        .collect();
    let mut exports = Vec::new();
    for &function in &functions {
        let spec = function.spec();
        let args = function.args(&model);
        let lens: Vec<usize> = args.iter().map(|(_, d)| d.len(&model)).collect();
        let export = export(
            &model,
            options,
            spec.name,
            &args,
            output_names(function)
                .iter()
                .map(|s| s.to_string())
                .collect(),
            output_shapes(spec.output, &model),
            spec.doc.iter().map(|s| s.to_string()).collect(),
            spec.per_frame.then_some(frames.as_slice()),
            |frame| {
                try_trace(&lens, |x| {
                    let mut data = Data::<Expr>::new(&model);
                    function.evaluate(&model, &mut data, x, frame)
                })
            },
        )?;
        exports.push(export);
    }
    for &function in &options.jacobians {
        let spec = function.spec();
        let args = function.args(&model);
        let names = args.iter().map(|(a, _)| format!("d_d{a}")).collect();
        let doc = vec![
            format!(
                "The Jacobian of `{}` by automatic differentiation of its traced graph,",
                spec.name
            ),
            "one block per argument, a row per output scalar (flattened row-major); a".into(),
            "configuration's block is in the tangent space (NV columns).".into(),
        ];
        let export = export(
            &model,
            options,
            &format!("{}_jacobian", spec.name),
            &args,
            names,
            output_shapes(jacobian_output(function, &model), &model),
            doc,
            spec.per_frame.then_some(frames.as_slice()),
            |frame| trace_jacobian(&model, function, frame),
        )?;
        exports.push(export);
    }
    let source = python_module(&model, name, command, &exports, frames_of(&exports));
    Ok(CasadiModule {
        source,
        op_counts: exports.iter().map(|e| (e.name.clone(), e.counts)).collect(),
        warnings,
    })
}

/// The link frames that some per-frame export has, in model order.
fn frames_of(exports: &[Export]) -> Vec<String> {
    exports
        .iter()
        .find(|e| e.graphs.first().is_some_and(|(f, _)| f.is_some()))
        .map(|e| e.graphs.iter().filter_map(|(f, _)| f.clone()).collect())
        .unwrap_or_default()
}

/// One function traced (per frame of `frames` when given), checked and
/// simplified as for the Rust output.
#[allow(clippy::too_many_arguments)]
fn export(
    model: &Model,
    options: &Options,
    name: &str,
    args: &[(&str, Dim)],
    output_names: Vec<String>,
    shapes: Vec<(usize, usize)>,
    doc: Vec<String>,
    frames: Option<&[(usize, String)]>,
    mut trace_at: impl FnMut(Option<usize>) -> Result<Traced, rbdgen_runtime::InputError>,
) -> Result<Export, GenerateError> {
    let at: Vec<Option<(usize, String)>> = match frames {
        Some(frames) => frames.iter().cloned().map(Some).collect(),
        None => vec![None],
    };
    let mut graphs = Vec::new();
    let mut counts = OpCounts::default();
    let mut stops = Stops::default();
    for frame in at {
        let traced =
            trace_at(frame.as_ref().map(|f| f.0)).map_err(|source| GenerateError::Input {
                function: name.to_string(),
                source,
            })?;
        check(model, &traced, name, options.scalar)?;
        let traced = simplified(model, traced, name, options, &mut stops)?;
        counts += traced.graph.op_counts(&traced.outputs);
        graphs.push((frame.map(|f| f.1), traced));
    }
    let names: Vec<String> = if output_names.len() == shapes.len() {
        output_names
    } else {
        (0..shapes.len()).map(|k| format!("out{k}")).collect()
    };
    Ok(Export {
        name: name.to_string(),
        inputs: args
            .iter()
            .map(|(a, d)| {
                let (r, c) = arg_shape(*d, model);
                (a.to_string(), r, c)
            })
            .collect(),
        outputs: names
            .into_iter()
            .zip(shapes)
            .map(|(n, (r, c))| (n, r, c))
            .collect(),
        doc,
        graphs,
        counts,
    })
}

/// A float as a Python literal that reads back as the same `f64` (Rust's
/// shortest round-trip form), parenthesised when negative.
fn literal(x: f64) -> String {
    let text = format!("{x:?}");
    if x.is_sign_negative() {
        format!("({text})")
    } else {
        text
    }
}

/// The body of one traced graph as a Python function `def NAME(x):` over
/// the flat list `x` of the inputs' CasADi scalars (the inputs in order,
/// each flattened row-major): one statement per live operation of `graph`
/// in node-id order, then the list of the outputs' scalars (a constant zero
/// as `_Z`, CasADi's structural zero; another constant as `_K(value)`).
/// The operators are the module's aliases of CasADi's functions (`_sin`,
/// `_cos`, `_sqrt`, `_atan2`, `_if_else`).
pub fn python_body(graph: &Graph, outputs: &[NodeId], name: &str) -> String {
    let live = graph.reachable(outputs);
    let nodes = graph.nodes();
    // The local of each computed node, numbered densely in order.
    let mut local: Vec<Option<usize>> = vec![None; nodes.len()];
    let mut next = 0;
    let mut out = format!("def {name}(x):\n");
    let operand = |id: NodeId, local: &[Option<usize>]| -> String {
        match nodes[id.0 as usize] {
            Node::Const(bits) => literal(f64::from_bits(bits)),
            Node::Input(k) => format!("x[{k}]"),
            _ => format!("t{}", local[id.0 as usize].expect("operands come first")),
        }
    };
    for (i, node) in nodes.iter().enumerate() {
        if !live[i] || matches!(node, Node::Const(_) | Node::Input(_)) {
            continue;
        }
        let o = |id: NodeId| operand(id, &local);
        let (op, args) = node.operation().expect("skipped above");
        let x: Vec<String> = args[..op.arity()].iter().map(|&a| o(a)).collect();
        let expr = match op.spelling() {
            Spelling::Prefix(p) => format!("{p}{}", x[0]),
            Spelling::Infix(p) => format!("{} {p} {}", x[0], x[1]),
            Spelling::Call(f) => format!("_{f}({})", x.join(", ")),
            Spelling::Select => format!("_if_else({} > 0, {}, {})", x[0], x[1], x[2]),
        };
        local[i] = Some(next);
        let _ = writeln!(out, "    t{next} = {expr}");
        next += 1;
    }
    let results: Vec<String> = outputs
        .iter()
        .map(|&id| match nodes[id.0 as usize] {
            Node::Const(0) => "_Z".to_string(),
            Node::Const(bits) => format!("_K({})", literal(f64::from_bits(bits))),
            _ => operand(id, &local),
        })
        .collect();
    let _ = writeln!(out, "    return [{}]", results.join(", "));
    out
}

/// A Python identifier made of `name`: other characters as `_`, a leading
/// digit after `_`.
fn identifier(name: &str) -> String {
    let mut id: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if !id.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        id.insert(0, '_');
    }
    id
}

/// A Python string literal of `s` (ASCII and escapes only).
fn string(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            ' '..='~' => out.push(c),
            c => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// The whole Python module: header, constants, the shared helpers, one body
/// per traced graph, one public function per export, the table.
fn python_module(
    model: &Model,
    name: &str,
    command: &str,
    exports: &[Export],
    frames: Vec<String>,
) -> String {
    let version = env!("CARGO_PKG_VERSION");
    let mut out = String::new();
    let _ = writeln!(
        out,
        "# The CasADi module `{name}`: generated by rbdgen {version}; do not edit.\n\
         # Regenerate with `{command}`."
    );
    let list: Vec<String> = exports
        .iter()
        .map(|e| format!("    {}: {}", e.name, e.counts))
        .collect();
    let _ = write!(
        out,
        "\"\"\"rbdgen's functions of `{source}` as CasADi expressions.\n\n\
         Each function takes CasADi SX (its traced graph is built on them, one SX\n\
         operation per operation of rbdgen's graph, constants folded), MX (a call of\n\
         the ready casadi.Function, `function(NAME)`, one node of the MX graph) or\n\
         numbers (that Function evaluated: DM results). Shapes: a vector is a column\n\
         (n, 1), a matrix (rows, cols) as the Rust arrays of rows, a scalar (1, 1),\n\
         fext (NJOINTS, 6), a placement (4, 4). Conventions are Pinocchio's: q is\n\
         [x y z qx qy qz qw, joints...] for a free-flyer (nq), v and the derivatives\n\
         with respect to q are in the tangent space (nv).\n\n\
         `function(NAME)` (`function(NAME, FRAME)` for a per-frame function), or the\n\
         attribute `NAME_function`, is the casadi.Function with named inputs and outputs.\n\n\
         Operations per function (rbdgen's count of the graph):\n{}\n\"\"\"\n\n",
        list.join("\n"),
        source = model_source(command),
    );
    let neutral: Vec<String> = model.neutral().iter().map(|x| format!("{x:?}")).collect();
    let _ = writeln!(out, "import casadi as _ca\n");
    let _ = writeln!(
        out,
        "NQ = {}\nNV = {}\nNJOINTS = {}",
        model.nq,
        model.nv,
        model.njoints()
    );
    let nc = Dim::Contacts.len(model);
    let _ = writeln!(out, "NC = {nc}");
    let _ = writeln!(out, "NEUTRAL = ({},)", neutral.join(", "));
    let frame_list: Vec<String> = frames.iter().map(|f| string(f)).collect();
    let _ = writeln!(out, "FRAMES = ({})", tuple_text(&frame_list));
    let names: Vec<String> = exports.iter().map(|e| string(&e.name)).collect();
    let _ = writeln!(out, "FUNCTIONS = ({})", tuple_text(&names));
    let ops: Vec<String> = exports
        .iter()
        .map(|e| format!("{}: {}", string(&e.name), e.counts.total()))
        .collect();
    let _ = writeln!(
        out,
        "# rbdgen's operation count of each function (all frames)."
    );
    let _ = writeln!(out, "OPS = {{{}}}\n", ops.join(", "));
    out.push_str(HELPERS);
    for e in exports {
        for (k, (_, traced)) in e.graphs.iter().enumerate() {
            let body = body_name(e, k);
            out.push('\n');
            out.push_str(&python_body(&traced.graph, &traced.outputs, &body));
        }
    }
    for e in exports {
        let per_frame = e.graphs.first().is_some_and(|(f, _)| f.is_some());
        // A Python keyword (`lambda`) as a parameter takes a `_` after it;
        // the casadi.Function's input keeps the name.
        let params: Vec<String> = e
            .inputs
            .iter()
            .map(|(a, _, _)| match PYTHON_KEYWORDS.contains(&a.as_str()) {
                true => format!("{a}_"),
                false => a.clone(),
            })
            .collect();
        let mut all = params.clone();
        if per_frame {
            all.push("frame".to_string());
        }
        let ins: Vec<String> = e
            .inputs
            .iter()
            .map(|(a, r, c)| format!("{a}: ({r}, {c})"))
            .collect();
        let outs: Vec<String> = e
            .outputs
            .iter()
            .map(|(a, r, c)| format!("{a}: ({r}, {c})"))
            .collect();
        let _ = writeln!(out, "\n\ndef {}({}):", e.name, all.join(", "));
        let _ = writeln!(
            out,
            "    \"\"\"{}",
            e.doc.first().map_or("", String::as_str)
        );
        for line in e.doc.iter().skip(1) {
            let line = line.replace('\\', "\\\\").replace("\"\"\"", "'''");
            if line.is_empty() {
                out.push('\n');
            } else {
                let _ = writeln!(out, "    {line}");
            }
        }
        let frame_note = if per_frame {
            "; frame: a name of FRAMES"
        } else {
            ""
        };
        let _ = writeln!(
            out,
            "\n    Inputs {}{frame_note}.\n    Outputs {}.\n    rbdgen: {}.\n    \"\"\"",
            ins.join(", "),
            outs.join(", "),
            e.counts
        );
        let frame = if per_frame { "frame" } else { "None" };
        let _ = writeln!(
            out,
            "    return _apply({}, {frame}, ({}))",
            string(&e.name),
            params
                .iter()
                .map(|p| format!("{p},"))
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
    let _ = writeln!(out, "\n\n_TABLE = {{");
    for e in exports {
        let shape = |list: &[(String, usize, usize)]| -> String {
            let items: Vec<String> = list
                .iter()
                .map(|(a, r, c)| format!("({}, {r}, {c})", string(a)))
                .collect();
            format!("({})", tuple_text(&items))
        };
        let bodies: Vec<String> = e
            .graphs
            .iter()
            .enumerate()
            .map(|(k, (f, _))| {
                let key = f.as_deref().map_or("None".to_string(), string);
                format!("{key}: {}", body_name(e, k))
            })
            .collect();
        let _ = writeln!(
            out,
            "    {}: ({}, {}, {{{}}}),",
            string(&e.name),
            shape(&e.inputs),
            shape(&e.outputs),
            bodies.join(", ")
        );
    }
    out.push_str("}\n");
    out
}

/// Python's keywords, which a parameter cannot be named.
const PYTHON_KEYWORDS: [&str; 35] = [
    "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue",
    "def", "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import",
    "in", "is", "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while",
    "with", "yield",
];

/// The model's name as the command line gives it (its first argument after
/// `generate`).
fn model_source(command: &str) -> String {
    command
        .split_whitespace()
        .skip_while(|w| *w != "generate")
        .nth(1)
        .unwrap_or("the model")
        .to_string()
}

/// `a, b` as the inside of a Python tuple (`a,` for one item).
fn tuple_text(items: &[String]) -> String {
    match items.len() {
        1 => format!("{},", items[0]),
        _ => items.join(", "),
    }
}

/// The name of the body of `e`'s graph `k`.
fn body_name(e: &Export, k: usize) -> String {
    match &e.graphs[k].0 {
        Some(frame) => format!("_{}__{k}_{}", e.name, identifier(frame)),
        None => format!("_{}", e.name),
    }
}

/// The module's shared Python: CasADi's operators under short names, the
/// argument conversion, the dispatch on SX, MX and numbers, the
/// `casadi.Function` cache.
const HELPERS: &str = r#"_sin = _ca.sin
_cos = _ca.cos
_sqrt = _ca.sqrt
_atan2 = _ca.atan2
_if_else = _ca.if_else
_K = _ca.SX
_Z = _ca.SX(1, 1)  # a structural zero


def _scalars(value, name, rows, cols):
    """The entries of one argument as 1x1 SX, row-major; ValueError on a wrong shape."""
    m = value if isinstance(value, _ca.SX) else _ca.SX(_ca.DM(value))
    if m.shape != (rows, cols):
        if cols == 1 and m.shape == (1, rows):
            m = m.T
        else:
            raise ValueError(f"{name}: expected shape ({rows}, {cols}), got {m.shape}")
    return [m[i, j] for i in range(rows) for j in range(cols)]


def _apply(name, frame, args):
    inputs, outputs, bodies = _TABLE[name]
    if frame not in bodies:
        raise ValueError(f"{name}: unknown frame {frame!r}; FRAMES lists the frames")
    if any(isinstance(a, _ca.MX) for a in args) or not any(isinstance(a, _ca.SX) for a in args):
        return function(name, frame)(*args)
    x = []
    for value, (arg, rows, cols) in zip(args, inputs):
        x.extend(_scalars(value, arg, rows, cols))
    flat = bodies[frame](x)
    results = []
    start = 0
    for _, rows, cols in outputs:
        part = flat[start:start + rows * cols]
        start += rows * cols
        column = _ca.vertcat(*part)
        results.append(column if cols == 1 else _ca.reshape(column, cols, rows).T)
    return results[0] if len(results) == 1 else tuple(results)


_FUNCTIONS = {}


def function(name, frame=None):
    """The casadi.Function of `name` (of its link `frame` for a per-frame function),
    built on SX once and kept: inputs and outputs named as the function's arguments
    and results."""
    key = (name, frame)
    if key not in _FUNCTIONS:
        inputs, outputs, bodies = _TABLE[name]
        if frame not in bodies:
            raise ValueError(f"{name}: unknown frame {frame!r}; FRAMES lists the frames")
        symbols = [_ca.SX.sym(arg, rows, cols) for arg, rows, cols in inputs]
        result = _apply(name, frame, symbols)
        result = list(result) if isinstance(result, tuple) else [result]
        label = name if frame is None else name + "_" + "".join(c if c.isalnum() else "_" for c in frame)
        _FUNCTIONS[key] = _ca.Function(
            label, symbols, result, [a for a, _, _ in inputs], [o for o, _, _ in outputs]
        )
    return _FUNCTIONS[key]


def __getattr__(attribute):
    # `NAME_function`: the casadi.Function of a function without frames.
    if attribute.endswith("_function") and attribute[: -len("_function")] in FUNCTIONS:
        return function(attribute[: -len("_function")])
    raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")
"#;

/// The derivative companion of a function in the external crate: the
/// function whose outputs are its Jacobian blocks with respect to each
/// argument, in argument order ([`external_crate`]'s `jac_NAME`).
pub fn analytical_derivatives(function: Function) -> Option<Function> {
    match function {
        Function::Rnea => Some(Function::RneaDerivatives),
        Function::Aba => Some(Function::AbaDerivatives),
        Function::ContactInverseDynamics => Some(Function::ContactInverseDynamicsDerivatives),
        Function::ContactDrift => Some(Function::ContactDriftDerivatives),
        Function::ContactDynamics => Some(Function::ContactDynamicsDerivatives),
        _ => None,
    }
}

/// CasADi's sparsity pattern of a dense `(rows, cols)` matrix (its short
/// form `[rows, cols, 1]`), or of one without nonzeros.
fn sparsity(rows: usize, cols: usize, dense: bool) -> String {
    if dense {
        format!("[{rows}, {cols}, 1]")
    } else {
        let zeros = vec!["0"; cols + 1].join(", ");
        format!("[{rows}, {cols}, {zeros}]")
    }
}

/// CasADi's sparsity pattern of a `(rows, cols)` result whose entries
/// `zero` marks (row-major) are structural zeros: compressed columns
/// `[rows, cols, colind[cols + 1], row[nnz]]`, or the dense short form when
/// none is.
fn pattern_of(rows: usize, cols: usize, zero: &[bool]) -> String {
    if !zero.contains(&true) {
        return sparsity(rows, cols, true);
    }
    let mut colind = vec![0];
    let mut row = Vec::new();
    for c in 0..cols {
        row.extend((0..rows).filter(|r| !zero[r * cols + c]));
        colind.push(row.len());
    }
    let all: Vec<String> = [rows, cols]
        .into_iter()
        .chain(colind)
        .chain(row)
        .map(|x| x.to_string())
        .collect();
    format!("[{}]", all.join(", "))
}

/// The statement writing the row-major `values` (Rust text) of a `(rows,
/// cols)` result to output `k`: all of it column-major, or with structural
/// zeros (`zero`, row-major) its nonzeros in CasADi's order.
fn write_output(k: usize, values: &str, rows: usize, cols: usize, zero: &[bool]) -> String {
    if !zero.contains(&true) {
        return format!("    output(res, {k}, {values}, {rows}, {cols});\n");
    }
    let at: Vec<String> = (0..cols)
        .flat_map(|c| (0..rows).map(move |r| r * cols + c))
        .filter(|&i| !zero[i])
        .map(|i| i.to_string())
        .collect();
    format!(
        "    output_nonzeros(res, {k}, {values}, &[{}]);\n",
        at.join(", ")
    )
}

/// Which entries of a traced function's flat outputs are the constant zero.
fn zeros(traced: &Traced) -> Vec<bool> {
    traced
        .outputs
        .iter()
        .map(|&id| traced.graph.node(id) == Node::Const(0))
        .collect()
}

/// The items of one CasADi external function `name` (its evaluation, the
/// counts, names, sparsity patterns and work sizes), with `body` the
/// statements that read `arg` and write `res`.
fn external_items(
    name: &str,
    doc: &str,
    inputs: &[(String, usize, usize, bool)],
    outputs: &[(String, usize, usize, Vec<bool>)],
    body: &str,
) -> String {
    let mut out = String::new();
    let names = |list: Vec<&String>| -> String {
        list.iter()
            .enumerate()
            .map(|(k, n)| format!("        {k} => c\"{n}\".as_ptr(),\n"))
            .collect()
    };
    let pattern = |list: Vec<String>| -> String {
        list.iter()
            .enumerate()
            .map(|(k, s)| {
                format!("        {k} => {{\n            static S: &[i64] = &{s};\n            S.as_ptr()\n        }}\n")
            })
            .collect()
    };
    let (n_in, n_out) = (inputs.len(), outputs.len());
    let _ = write!(
        out,
        "/// CasADi external function `{name}`: {doc}\n\
         ///\n\
         /// # Safety\n\
         /// `arg` holds {n_in} pointers (each null, or to its input's nonzeros,\n\
         /// column-major), `res` {n_out} (each null, or to room for its output's).\n\
         #[no_mangle]\n\
         pub unsafe extern \"C\" fn {name}(\n    arg: *const *const f64,\n    res: *const *mut f64,\n    \
         _iw: *mut i64,\n    _w: *mut f64,\n    _mem: c_int,\n) -> c_int {{\n\
         {body}    0\n}}\n\n\
         /// The number of inputs of `{name}`.\n\
         #[no_mangle]\npub extern \"C\" fn {name}_n_in() -> i64 {{\n    {n_in}\n}}\n\n\
         /// The number of outputs of `{name}`.\n\
         #[no_mangle]\npub extern \"C\" fn {name}_n_out() -> i64 {{\n    {n_out}\n}}\n\n\
         /// The name of input `i` of `{name}` (null past the last).\n\
         #[no_mangle]\npub extern \"C\" fn {name}_name_in(i: i64) -> *const c_char {{\n    match i {{\n{}        _ => std::ptr::null(),\n    }}\n}}\n\n\
         /// The name of output `i` of `{name}` (null past the last).\n\
         #[no_mangle]\npub extern \"C\" fn {name}_name_out(i: i64) -> *const c_char {{\n    match i {{\n{}        _ => std::ptr::null(),\n    }}\n}}\n\n\
         /// The sparsity pattern of input `i` of `{name}` (null past the last).\n\
         #[no_mangle]\npub extern \"C\" fn {name}_sparsity_in(i: i64) -> *const i64 {{\n    match i {{\n{}        _ => std::ptr::null(),\n    }}\n}}\n\n\
         /// The sparsity pattern of output `i` of `{name}` (null past the last).\n\
         #[no_mangle]\npub extern \"C\" fn {name}_sparsity_out(i: i64) -> *const i64 {{\n    match i {{\n{}        _ => std::ptr::null(),\n    }}\n}}\n\n\
         /// The work sizes of `{name}`: its pointer counts, no integer or real work.\n\
         ///\n\
         /// # Safety\n\
         /// Each pointer is null or points to room for one `i64`.\n\
         #[no_mangle]\npub unsafe extern \"C\" fn {name}_work(\n    sz_arg: *mut i64,\n    sz_res: *mut i64,\n    \
         sz_iw: *mut i64,\n    sz_w: *mut i64,\n) -> c_int {{\n    \
         for (p, n) in [(sz_arg, {n_in}), (sz_res, {n_out}), (sz_iw, 0), (sz_w, 0)] {{\n        \
         if !p.is_null() {{\n            *p = n;\n        }}\n    }}\n    0\n}}\n\n",
        names(inputs.iter().map(|i| &i.0).collect()),
        names(outputs.iter().map(|o| &o.0).collect()),
        pattern(inputs.iter().map(|(_, r, c, d)| sparsity(*r, *c, *d)).collect()),
        pattern(
            outputs
                .iter()
                .map(|(_, r, c, zero)| pattern_of(*r, *c, zero))
                .collect()
        ),
    );
    out
}

/// The files of the crate of CasADi external functions (`rbdgen generate
/// URDF --casadi-external NAME --crate DIR`), paths relative to the crate,
/// and the generated dynamics module: `Cargo.toml` (a `cdylib` named `NAME`,
/// `libm` and `wide`), `.cargo/config.toml` (`-C target-cpu=native`: the
/// library runs on the machine that built it), `src/lib.rs` (the externals) and `src/dynamics.rs`
/// (the module, generated with `std` and, for the Jacobians, the
/// derivative functions of [`analytical_derivatives`]).
///
/// Every function of `options.functions` whose arguments are vectors or
/// scalars is a CasADi external function of its own name, loadable with
/// `casadi.external("rnea", "target/release/libNAME.so")`: `NAME`,
/// `NAME_n_in`, `NAME_n_out`, `NAME_name_in`, `NAME_name_out`,
/// `NAME_sparsity_in`, `NAME_sparsity_out`, `NAME_work`; inputs and outputs
/// named and shaped as in the CasADi module ([`casadi_module`]), values
/// column-major (CasADi's), a null input read as zeros and a null output
/// skipped. `rnea`, `aba`, `contact_inverse_dynamics` and `contact_drift`
/// also get `jac_NAME`, the Jacobian CasADi looks up: its inputs are the
/// function's and its output (not read: no nonzeros), its outputs the blocks
/// `jac_OUT_IN`, filled from their analytical derivatives
/// ([`analytical_derivatives`]); where `q` has more coordinates
/// than the tangent space (`NQ > NV`: a free-flyer, a continuous joint),
/// the block of `q` is with respect to its `NQ` entries, by automatic
/// differentiation of the traced function (the module's user function
/// `NAME_raw_q` and its `NAME_raw_q_jacobian`).
///
/// # Errors
/// As [`crate::generate_module`]; [`GenerateError::Casadi`] for a name that
/// is not an identifier, a function with a matrix argument (`fext`, a
/// placement, `pi`), a per-frame function, or `f32`.
pub fn external_crate(
    urdf: &str,
    options: &Options,
    name: &str,
    command: &str,
) -> Result<(Vec<(String, String)>, crate::Module), GenerateError> {
    if !crate::options::is_c_identifier(name) {
        return Err(GenerateError::Casadi(format!(
            "`{name}` is not a crate name (letters, digits and `_`, not starting with a digit)"
        )));
    }
    if options.scalar != crate::ScalarType::F64 {
        return Err(GenerateError::Casadi(
            "CasADi's external functions are f64; leave out the f32 scalar".into(),
        ));
    }
    let model = build_model(urdf, options)?;
    let requested: Vec<Function> = if options.functions.len() == Function::ALL.len() {
        Function::default_set(&model)
    } else {
        options.functions.iter().copied().collect()
    };
    let tangent = model.nq == model.nv;
    let mut functions = std::collections::BTreeSet::new();
    for &f in &requested {
        let spec = f.spec();
        if spec.per_frame {
            return Err(GenerateError::Casadi(format!(
                "`{}` is per frame; the external functions take no frame (leave it out)",
                spec.name
            )));
        }
        if let Some((arg, _)) = f
            .args(&model)
            .iter()
            .find(|(_, d)| !matches!(d.row_len(), None | Some(0)))
        {
            return Err(GenerateError::Casadi(format!(
                "`{}` takes the matrix `{arg}`; the external functions take vectors and scalars (leave it out)",
                spec.name
            )));
        }
        functions.insert(f);
        if let Some(d) = analytical_derivatives(f) {
            functions.insert(d);
        }
    }
    // With q not in the tangent space's coordinates, the block of q by
    // automatic differentiation of the traced function with respect to q's
    // entries, as a user function `NAME_raw_q` with q of fixed length.
    let mut raw_q: Vec<UserFunction> = requested
        .iter()
        .filter(|_| !tangent)
        .filter_map(|&f| {
            let evaluate: crate::UserFn = match f {
                Function::Rnea => rnea_on_entries,
                Function::Aba => aba_on_entries,
                Function::ContactInverseDynamics => contact_inverse_dynamics_on_entries,
                Function::ContactDrift => contact_drift_on_entries,
                _ => return None,
            };
            let mut user =
                UserFunction::new(&format!("{}_raw_q", f.name()), f.spec().output, evaluate);
            for (arg, dim) in f.args(&model) {
                let dim = if dim == Dim::Nq {
                    Dim::Fixed(model.nq)
                } else {
                    dim
                };
                user = user.input(arg, dim);
            }
            Some(user.jacobian(&["q"]))
        })
        .collect();
    // contact_dynamics' (a, λ) as one vector, differentiated by automatic
    // differentiation with respect to the damping (which
    // contact_dynamics_derivatives leaves out) and, with a free-flyer root, to
    // the base's 7 entries of q only (the joints' entries are their tangent
    // coordinates: their columns are the analytical derivatives').
    let free_flyer = free_flyer_root(&model);
    if requested.contains(&Function::ContactDynamics) {
        if !tangent && !free_flyer {
            return Err(GenerateError::Casadi(
                "`contact_dynamics`' Jacobian with q's entries unlike its tangent's needs a free-flyer root \
                 and joints of one coordinate each (leave contact_dynamics out)"
                    .into(),
            ));
        }
        let len = Function::ContactDynamics.spec().output.len(&model);
        let mut user = UserFunction::new(
            "contact_dynamics_raw",
            Output::Vector(Dim::Fixed(len)),
            contact_dynamics_on_parts,
        );
        user = match tangent {
            true => user.input("q", Dim::Nq),
            false => user
                .input("base", Dim::Fixed(7))
                .input("joints", Dim::Fixed(model.nq - 7)),
        };
        user = user
            .input("v", Dim::Nv)
            .input("tau", Dim::Nv)
            .input("damping", Dim::Scalar);
        raw_q.push(user.jacobian(if tangent {
            &["damping"]
        } else {
            &["base", "damping"]
        }));
    }
    let module_options = Options {
        functions,
        std: true,
        casadi: None,
        c_api: None,
        user_functions: raw_q,
        ..options.clone()
    };
    let module = crate::generate_module(urdf, &module_options, |_| {})?;
    let source = module.source()?;
    let version = env!("CARGO_PKG_VERSION");
    let mut lib = format!(
        "//! CasADi external functions of `{}`, generated by rbdgen {version}: `{command}`.\n\
         //! Do not edit: regenerate instead. `cargo build --release` writes\n\
         //! target/release/lib{name}.so; `casadi.external(\"FUNCTION\", PATH)` loads one.\n\
         //! Values are CasADi's: each input and output a column-major array of its\n\
         //! nonzeros (a result's structural zeros left out), a null input read as zeros, a null output\n\
         //! skipped; every function returns 0.\n\n\
         #![allow(clippy::missing_safety_doc)]\n\n\
         use std::ffi::{{c_char, c_int}};\n\n\
         #[allow(dead_code)]\nmod dynamics;\n\n",
        model_source(command)
    );
    lib.push_str(EXTERNAL_HELPERS);
    for &f in &requested {
        let spec = f.spec();
        let args = f.args(&model);
        let inputs: Vec<(String, usize, usize, bool)> = args
            .iter()
            .map(|(a, d)| {
                let (r, c) = arg_shape(*d, &model);
                (a.to_string(), r, c, true)
            })
            .collect();
        let shapes = output_shapes(spec.output, &model);
        // The structural zeros: the traced function's constant-zero outputs.
        let lens: Vec<usize> = args.iter().map(|(_, d)| d.len(&model)).collect();
        let traced = try_trace(&lens, |x| {
            let mut data = Data::<Expr>::new(&model);
            f.evaluate(&model, &mut data, x, None)
        })
        .map_err(|source| GenerateError::Input {
            function: spec.name.to_string(),
            source,
        })?;
        let mut zero = zeros(&traced).into_iter();
        let outputs: Vec<(String, usize, usize, Vec<bool>)> = output_names(f)
            .iter()
            .zip(&shapes)
            .map(|(n, (r, c))| (n.to_string(), *r, *c, zero.by_ref().take(r * c).collect()))
            .collect();
        let mut body = String::new();
        let mut call = Vec::new();
        for (k, (a, d)) in args.iter().enumerate() {
            let n = d.len(&model);
            let _ = writeln!(body, "    let {a}: [f64; {n}] = input(arg, {k});");
            call.push(match d {
                Dim::Scalar => format!("{a}[0]"),
                _ => format!("&{a}"),
            });
        }
        let _ = writeln!(
            body,
            "    let result = dynamics::{}({});",
            spec.name,
            call.join(", ")
        );
        let parts: Vec<String> = match spec.output {
            Output::Tuple(p) => (0..p.len()).map(|k| format!("result.{k}")).collect(),
            _ => vec!["result".to_string()],
        };
        for (k, ((part, (r, c)), o)) in parts
            .iter()
            .zip(&shapes)
            .zip(spec_parts(spec.output))
            .enumerate()
        {
            let flat = match o {
                Output::Scalar => format!("&[{part}]"),
                Output::Matrix(..) => format!("{part}.as_flattened()"),
                _ => format!("&{part}"),
            };
            body.push_str(&write_output(k, &flat, *r, *c, &outputs[k].3));
        }
        // The doc's first paragraph.
        let doc: Vec<&str> = spec
            .doc
            .iter()
            .copied()
            .take_while(|l| !l.is_empty())
            .collect();
        let doc = doc.join("\n/// ");
        lib.push_str(&external_items(spec.name, &doc, &inputs, &outputs, &body));
        let Some(derivatives) = analytical_derivatives(f) else {
            continue;
        };
        if f == Function::ContactDynamics {
            lib.push_str(&contact_dynamics_jacobian(
                &model, &inputs, &outputs, tangent,
            ));
            continue;
        }
        // jac_NAME: the inputs, then the output (not read); a block per
        // (output, input), rows the output's entries, columns the input's.
        let (out_name, out_rows, out_cols, _) = outputs[0].clone();
        let mut jac_inputs = inputs.clone();
        jac_inputs.push((format!("out_{out_name}"), out_rows, out_cols, false));
        // The blocks' structural zeros: the derivatives' constant zeros (of
        // q's entries' Jacobian for a free-flyer).
        let traced = try_trace(&lens, |x| {
            let mut data = Data::<Expr>::new(&model);
            derivatives.evaluate(&model, &mut data, x, None)
        })
        .map_err(|source| GenerateError::Input {
            function: derivatives.name().to_string(),
            source,
        })?;
        let mut zero = zeros(&traced);
        let n = out_rows * out_cols;
        if !tangent {
            let user = module_options
                .user_functions
                .iter()
                .find(|u| u.name == format!("{}_raw_q", spec.name))
                .expect("a raw q user function for each jac_ of a free-flyer");
            let raw = crate::user::UserItem::Jacobian
                .trace(user, &model)
                .map_err(|source| GenerateError::Input {
                    function: format!("{}_raw_q_jacobian", spec.name),
                    source,
                })?;
            zero = [zeros(&raw), zero[n * model.nv..].to_vec()].concat();
        }
        let mut zero = zero.into_iter();
        let jac_outputs: Vec<(String, usize, usize, Vec<bool>)> = inputs
            .iter()
            .map(|(a, r, c, _)| {
                let mask = zero.by_ref().take(n * r * c).collect();
                (format!("jac_{out_name}_{a}"), n, r * c, mask)
            })
            .collect();
        let mut body = String::new();
        for (k, (a, d)) in args.iter().enumerate() {
            let _ = writeln!(
                body,
                "    let {a}: [f64; {}] = input(arg, {k});",
                d.len(&model)
            );
        }
        let call: Vec<String> = args.iter().map(|(a, _)| format!("&{a}")).collect();
        let _ = writeln!(
            body,
            "    let blocks = dynamics::{}({});",
            derivatives.name(),
            call.join(", ")
        );
        if !tangent {
            let _ = writeln!(
                body,
                "    let raw_q = dynamics::{}_raw_q_jacobian({});",
                spec.name,
                call.join(", ")
            );
        }
        for (k, (_, r, c, zero)) in jac_outputs.iter().enumerate() {
            let values = match k == 0 && !tangent {
                true => "raw_q.as_flattened()".to_string(),
                false => format!("blocks.{k}.as_flattened()"),
            };
            body.push_str(&write_output(k, &values, *r, *c, zero));
        }
        let doc = match tangent {
            true => format!(
                "the Jacobian of `{}` (CasADi's `jac_{}`), from `{}`.",
                spec.name,
                spec.name,
                derivatives.name()
            ),
            false => format!(
                "the Jacobian of `{}` (CasADi's `jac_{}`): with respect to `q`'s entries by automatic \
                 differentiation of its traced graph (`{}_raw_q_jacobian`), the others from `{}`.",
                spec.name,
                spec.name,
                spec.name,
                derivatives.name()
            ),
        };
        lib.push_str(&external_items(
            &format!("jac_{}", spec.name),
            &doc,
            &jac_inputs,
            &jac_outputs,
            &body,
        ));
    }
    let cargo = format!(
        "# CasADi external functions `{name}`, generated by rbdgen {version}: `{command}`.\n\
         # `cargo build --release` writes target/release/lib{name}.so.\n\
         [package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         [lib]\ncrate-type = [\"cdylib\"]\n\n\
         [dependencies]\nlibm = \"0.2\"\nwide = {{ version = \"1\", default-features = false }}\n\n\
         # The generated code does not panic; no unwinding crosses into C.\n\
         [profile.release]\npanic = \"abort\"\n\n\
         [profile.dev]\npanic = \"abort\"\n\n\
         # Not part of an enclosing workspace.\n[workspace]\n"
    );
    // As the Python crate's: built for the machine that builds it (FMA, and
    // `wide`'s widest vectors); remove the file for a portable library.
    let config = format!(
        "# CasADi external functions `{name}`, generated by rbdgen {version}.\n\
         # Every crate built for the machine that builds it; remove this file for a\n\
         # portable library.\n[build]\nrustflags = [\"-C\", \"target-cpu=native\"]\n"
    );
    let files = vec![
        (".cargo/config.toml".to_string(), config),
        ("Cargo.toml".to_string(), cargo),
        ("src/lib.rs".to_string(), lib),
        ("src/dynamics.rs".to_string(), source),
    ];
    Ok((files, module))
}

/// `rnea` on `q` given by its entries (a user function of the external
/// crate, differentiated with respect to them).
fn rnea_on_entries(
    model: &Model,
    data: &mut Data<Expr>,
    x: &[Vec<Expr>],
) -> Result<Vec<Expr>, rbdgen_runtime::InputError> {
    Function::Rnea.evaluate(model, data, x, None)
}

/// `contact_inverse_dynamics` on `q` given by its entries, as [`rnea_on_entries`].
fn contact_inverse_dynamics_on_entries(
    model: &Model,
    data: &mut Data<Expr>,
    x: &[Vec<Expr>],
) -> Result<Vec<Expr>, rbdgen_runtime::InputError> {
    Function::ContactInverseDynamics.evaluate(model, data, x, None)
}

/// Whether the model's root is a free-flyer (q's first 7 entries) and every
/// other joint has one coordinate per velocity (`NQ = NV + 1`).
fn free_flyer_root(model: &Model) -> bool {
    model.nq == model.nv + 1
        && model
            .joints
            .get(1)
            .is_some_and(|j| matches!(j.kind, rbdgen_runtime::JointKind::FreeFlyer))
}

/// `jac_contact_dynamics`: CasADi's Jacobian of both outputs (`a`, `λ`) with
/// respect to each input, output-major: the blocks of `v` and `tau` and the
/// joints' columns of `q` from `contact_dynamics_derivatives`, the columns
/// of a free-flyer's 7 entries and the block of `damping` by automatic
/// differentiation of the traced function (`contact_dynamics_raw_jacobian`).
/// Dense blocks.
fn contact_dynamics_jacobian(
    model: &Model,
    inputs: &[(String, usize, usize, bool)],
    outputs: &[(String, usize, usize, Vec<bool>)],
    tangent: bool,
) -> String {
    let (nq, nv) = (model.nq, model.nv);
    let mut jac_inputs = inputs.to_vec();
    for (o, r, c, _) in outputs {
        jac_inputs.push((format!("out_{o}"), *r, *c, false));
    }
    let mut jac_outputs = Vec::new();
    let mut body = String::new();
    for (k, (a, r, c, _)) in inputs.iter().enumerate() {
        let _ = writeln!(body, "    let {a}: [f64; {}] = input(arg, {k});", r * c);
    }
    body.push_str(
        "    let blocks = dynamics::contact_dynamics_derivatives(&q, &v, &tau, damping[0]);\n",
    );
    if tangent {
        body.push_str(
            "    let raw = dynamics::contact_dynamics_raw_jacobian(&q, &v, &tau, damping[0]);\n",
        );
    } else {
        let _ = writeln!(
            body,
            "    let base: [f64; 7] = q[..7].try_into().unwrap_or([0.0; 7]);\n    \
             let joints: [f64; {}] = q[7..].try_into().unwrap_or([0.0; {}]);\n    \
             let raw = dynamics::contact_dynamics_raw_jacobian(&base, &joints, &v, &tau, damping[0]);",
            nq - 7,
            nq - 7
        );
    }
    let mut k = 0;
    for (oi, (o, rows, _, _)) in outputs.iter().enumerate() {
        let offset = if oi == 0 { 0 } else { nv };
        let range = if oi == 0 {
            format!("..{nv}")
        } else {
            format!("{nv}..")
        };
        for (ii, (a, r, c, _)) in inputs.iter().enumerate() {
            let cols = r * c;
            let values = match (a.as_str(), tangent) {
                ("q", false) => {
                    // The base's 7 columns by AD, the joints' analytical.
                    let _ = writeln!(
                        body,
                        "    let mut jq{oi} = [[0.0; {nq}]; {rows}];\n    \
                         for (r, row) in jq{oi}.iter_mut().enumerate() {{\n        \
                         row[..7].copy_from_slice(&raw.0[{offset} + r]);\n        \
                         row[7..].copy_from_slice(&blocks.{}[r][6..]);\n    }}",
                        3 * oi
                    );
                    format!("jq{oi}.as_flattened()")
                }
                ("damping", false) => format!("&raw.1[{range}]"),
                ("damping", true) => format!("&raw[{range}]"),
                _ => format!("blocks.{}.as_flattened()", 3 * oi + ii),
            };
            body.push_str(&write_output(k, &values, *rows, cols, &[]));
            jac_outputs.push((format!("jac_{o}_{a}"), *rows, cols, Vec::new()));
            k += 1;
        }
    }
    let doc = "the Jacobian of `contact_dynamics` (CasADi's `jac_contact_dynamics`): the blocks of \
               `v`, `tau` and the joints' columns of `q` from `contact_dynamics_derivatives`, those of \
               a free-flyer's 7 entries of `q` and of `damping` by automatic differentiation of its \
               traced graph (`contact_dynamics_raw_jacobian`).";
    external_items(
        "jac_contact_dynamics",
        doc,
        &jac_inputs,
        &jac_outputs,
        &body,
    )
}

/// `contact_dynamics` with `q` in one argument, or a free-flyer's 7 entries
/// and the joints' in two; its `(a, λ)` one vector.
fn contact_dynamics_on_parts(
    model: &Model,
    data: &mut Data<Expr>,
    x: &[Vec<Expr>],
) -> Result<Vec<Expr>, rbdgen_runtime::InputError> {
    if x.len() == 5 {
        let q: Vec<Expr> = x[0].iter().chain(&x[1]).cloned().collect();
        let args = [q, x[2].clone(), x[3].clone(), x[4].clone()];
        Function::ContactDynamics.evaluate(model, data, &args, None)
    } else {
        Function::ContactDynamics.evaluate(model, data, x, None)
    }
}

/// `contact_drift` on `q` given by its entries, as [`rnea_on_entries`].
fn contact_drift_on_entries(
    model: &Model,
    data: &mut Data<Expr>,
    x: &[Vec<Expr>],
) -> Result<Vec<Expr>, rbdgen_runtime::InputError> {
    Function::ContactDrift.evaluate(model, data, x, None)
}

/// `aba` on `q` given by its entries, as [`rnea_on_entries`].
fn aba_on_entries(
    model: &Model,
    data: &mut Data<Expr>,
    x: &[Vec<Expr>],
) -> Result<Vec<Expr>, rbdgen_runtime::InputError> {
    Function::Aba.evaluate(model, data, x, None)
}

/// The parts of an output (itself when not a tuple).
fn spec_parts(output: Output) -> Vec<Output> {
    match output {
        Output::Tuple(parts) => parts.to_vec(),
        o => vec![o],
    }
}

/// The external crate's reading and writing of CasADi's arrays.
const EXTERNAL_HELPERS: &str =
    "/// Input `i` as the Rust argument's array: its `N` values, zeros when
/// CasADi passes a null pointer (a vector's column-major order is its own).
///
/// # Safety
/// `arg` holds at least `i + 1` pointers, each null or to `N` values.
#[allow(dead_code)]
unsafe fn input<const N: usize>(arg: *const *const f64, i: usize) -> [f64; N] {
    let mut x = [0.0; N];
    let p = *arg.add(i);
    if !p.is_null() {
        x.copy_from_slice(std::slice::from_raw_parts(p, N));
    }
    x
}

/// Writes `values` (row-major, `rows x cols`) to output `i` in CasADi's
/// column-major order; nothing when CasADi passes a null pointer.
///
/// # Safety
/// `res` holds at least `i + 1` pointers, each null or to `rows * cols` values.
#[allow(dead_code)]
unsafe fn output(res: *const *mut f64, i: usize, values: &[f64], rows: usize, cols: usize) {
    let p = *res.add(i);
    if p.is_null() {
        return;
    }
    for r in 0..rows {
        for c in 0..cols {
            *p.add(c * rows + r) = values[r * cols + c];
        }
    }
}

/// Writes the nonzeros of output `i`, the entries `at` of `values` in
/// CasADi's order; nothing when CasADi passes a null pointer.
///
/// # Safety
/// `res` holds at least `i + 1` pointers, each null or to `at.len()` values.
#[allow(dead_code)]
unsafe fn output_nonzeros(res: *const *mut f64, i: usize, values: &[f64], at: &[usize]) {
    let p = *res.add(i);
    if p.is_null() {
        return;
    }
    for (j, &k) in at.iter().enumerate() {
        *p.add(j) = values[k];
    }
}

";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::trace;
    use rbdgen_runtime::Scalar;

    /// A small graph of every operator: its body is one statement per
    /// operation, in order, reading inputs as `x[k]` and constants in place.
    #[test]
    fn python_body_writes_one_statement_per_operation() {
        let traced = trace(&[2], |x| {
            let (a, b) = (x[0][0], x[0][1]);
            let (s, c) = a.sin_cos();
            let p = s * b + Expr::constant(-0.5) / c;
            let r = (a * a + b * b).sqrt();
            let t = -Scalar::atan2(r, p);
            let sel = Expr::select(a - b, t, p);
            vec![sel, Expr::constant(0.0), Expr::constant(2.0), b]
        });
        let body = python_body(&traced.graph, &traced.outputs, "_f");
        let expected = "def _f(x):
    t0 = _sin(x[0])
    t1 = _cos(x[0])
    t2 = x[1] * t0
    t3 = (-0.5) / t1
    t4 = t2 + t3
    t5 = x[0] * x[0]
    t6 = x[1] * x[1]
    t7 = t5 + t6
    t8 = _sqrt(t7)
    t9 = _atan2(t8, t4)
    t10 = -t9
    t11 = x[0] - x[1]
    t12 = _if_else(t11 > 0, t10, t4)
    return [t12, _Z, _K(2.0), x[1]]
";
        assert_eq!(body, expected);
        let counts = traced.graph.op_counts(&traced.outputs);
        assert_eq!(
            counts.total(),
            body.lines().filter(|l| l.contains(" = ")).count()
        );
    }

    /// Every function of the table has one output name per part of its result.
    #[test]
    fn every_function_names_each_output() {
        for f in Function::ALL {
            let parts = match f.spec().output {
                Output::Tuple(parts) => parts.len(),
                _ => 1,
            };
            assert_eq!(output_names(f).len(), parts, "{}", f.name());
        }
    }

    /// The external crate of a double pendulum: every symbol of CasADi's
    /// external-function API for each function, `jac_rnea` and `jac_aba`
    /// (its q has NV coordinates) with the output as an input without
    /// nonzeros, and a refusal of a per-frame function.
    #[test]
    fn external_crate_has_the_api_and_the_jacobians() {
        let urdf = include_str!("../../tests/golden/double_pendulum.urdf");
        let options = Options {
            functions: [Function::Rnea, Function::Aba, Function::Crba]
                .into_iter()
                .collect(),
            ..Options::default()
        };
        let (files, _) = external_crate(urdf, &options, "pendulum", "rbdgen generate").unwrap();
        let lib = &files.iter().find(|(p, _)| p == "src/lib.rs").unwrap().1;
        for f in ["rnea", "aba", "crba", "jac_rnea", "jac_aba"] {
            for suffix in [
                "(",
                "_n_in(",
                "_n_out(",
                "_name_in(",
                "_name_out(",
                "_sparsity_in(",
                "_sparsity_out(",
                "_work(",
            ] {
                assert!(
                    lib.contains(&format!("extern \"C\" fn {f}{suffix}")),
                    "{f}{suffix}"
                );
            }
        }
        assert!(!lib.contains("fn jac_crba("));
        assert!(lib.contains("3 => c\"out_tau\".as_ptr()"));
        assert!(lib.contains("static S: &[i64] = &[2, 1, 0, 0];"));
        assert!(lib.contains("let blocks = dynamics::aba_derivatives(&q, &v, &tau);"));
        let source = &files
            .iter()
            .find(|(p, _)| p == "src/dynamics.rs")
            .unwrap()
            .1;
        assert!(source.contains("pub fn rnea_derivatives("));
        // A free-flyer: the block of q's entries by automatic differentiation.
        let floating = Options {
            floating_base: true,
            ..options.clone()
        };
        let hopper = include_str!("../../tests/golden/hopper.urdf");
        let (files, _) = external_crate(hopper, &floating, "hopper", "rbdgen generate").unwrap();
        let lib = &files.iter().find(|(p, _)| p == "src/lib.rs").unwrap().1;
        assert!(lib.contains("let raw_q = dynamics::aba_raw_q_jacobian(&q, &v, &tau);"));
        // The q block's structural zeros left out (`aba` does not depend on
        // the base's position).
        assert!(lib.contains("output_nonzeros(res, 0, raw_q.as_flattened(), &[3, 12, "));
        let frame = Options {
            functions: [Function::FramePlacement].into_iter().collect(),
            ..Options::default()
        };
        let refused = external_crate(urdf, &frame, "pendulum", "rbdgen generate");
        assert!(matches!(refused, Err(GenerateError::Casadi(_))));
        // jac_contact_dynamics on the floating hopper standing on its shin:
        // both outputs' blocks, the base's 7 columns and the damping by
        // automatic differentiation.
        let contact = Options {
            functions: [Function::ContactDynamics].into_iter().collect(),
            contacts: vec![("shin".to_string(), rbdgen_runtime::ContactKind::Point)],
            ..floating.clone()
        };
        let (files, _) = external_crate(hopper, &contact, "hopper", "rbdgen generate").unwrap();
        let lib = &files.iter().find(|(p, _)| p == "src/lib.rs").unwrap().1;
        assert!(lib.contains("extern \"C\" fn jac_contact_dynamics("));
        for name in [
            "out_a",
            "out_lambda",
            "jac_a_damping",
            "jac_lambda_q",
            "jac_lambda_damping",
        ] {
            assert!(lib.contains(&format!("c\"{name}\".as_ptr()")), "{name}");
        }
        assert!(lib.contains(
            "dynamics::contact_dynamics_raw_jacobian(&base, &joints, &v, &tau, damping[0])"
        ));
    }

    /// Literals read back as the same number.
    #[test]
    fn literals_round_trip() {
        for x in [0.1, -0.5, 1e-300, 6.02e23, -1.0 / 3.0] {
            let text = literal(x);
            let back: f64 = text.trim_matches(|c| c == '(' || c == ')').parse().unwrap();
            assert_eq!(back.to_bits(), x.to_bits(), "{text}");
        }
    }
}
