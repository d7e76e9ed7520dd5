//! The CasADi Python module ([`casadi_module`]): each function traced,
//! checked and simplified, then written as Python statements on CasADi's
//! `SX` scalars ([`python_body`]) with the module's helpers and table.

use std::fmt::Write as _;

use rbdgen_runtime::{Data, Model};

use super::{arg_shape, model_source, output_names, output_shapes};
use crate::api::selected_frames;
use crate::error::GenerateError;
use crate::functions::{Dim, Function};
use crate::graph::{Graph, Node, NodeId, OpCounts};
use crate::jacobian::{jacobian_output, trace_jacobian};
use crate::ops::Spelling;
use crate::options::Options;
use crate::prepare::{build_model, check, simplified};
use crate::simplify::Stops;
use crate::trace::{try_trace, Expr, Traced};

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
    let mut out = header(name, command, exports);
    out.push_str(&constants(model, exports, &frames));
    out.push_str(HELPERS);
    for e in exports {
        for (k, (_, traced)) in e.graphs.iter().enumerate() {
            let body = body_name(e, k);
            out.push('\n');
            out.push_str(&python_body(&traced.graph, &traced.outputs, &body));
        }
    }
    for e in exports {
        out.push_str(&public_function(e));
    }
    out.push_str(&table(exports));
    out
}

/// The module's first lines: the comment that it is generated and how to
/// regenerate it, then its docstring (the calling conventions, each
/// function's operation count).
fn header(name: &str, command: &str, exports: &[Export]) -> String {
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
    out
}

/// The import of CasADi and the module's constants: the model's sizes, its
/// neutral configuration, the frames, the functions and their operation
/// counts.
fn constants(model: &Model, exports: &[Export], frames: &[String]) -> String {
    let mut out = String::new();
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
    out
}

/// The public Python function of export `e`: its signature, docstring (the
/// table's doc, the shapes, the count) and the call of `_apply`.
fn public_function(e: &Export) -> String {
    let mut out = String::new();
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
    out
}

/// The module's `_TABLE`: per export, its inputs' and outputs' shapes and
/// the body of each of its graphs.
fn table(exports: &[Export]) -> String {
    let mut out = String::new();
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
