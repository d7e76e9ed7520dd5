//! The one entry point: URDF text and options in, formatted Rust out. The
//! macro and the CLI both call [`generate_module`] (through [`generate`] or
//! [`generate_tokens`]), so a committed file and the macro's module are the
//! same code. The pipeline per function: trace, check, simplify when asked,
//! [`schedule()`], [`print()`]; around the functions, the header
//! ([`crate::header`]) and the module's constants (the private `api` module).

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use rbdgen_runtime::{Data, Model, ModelError};
use thiserror::Error;

use crate::api::{
    arg_params, constants, mul_add_helper, output_shape, output_type, selected_frames,
    sincos4_helper, variant_name,
};
use crate::columns::{choose_columns, emit_columns, looped_fits};
use crate::emit::{
    print, print_packed, schedule, Arith, Inputs, ScalarType, Split, PART_LEN, WHOLE_LEN,
};
use crate::ffi::{c_api_module, c_header};
use crate::functions::{Dim, Function, Output};
use crate::graph::{Node, OpCounts};
use crate::header::header_doc;
use crate::jacobian::{jacobian_output, trace_jacobian};
use crate::lanes::{lane_wrappers, lanes_module};
use crate::limbs::{self, Packing};
use crate::options::{apply_to_model, OptionError, OptionKey, OptionSpec, Options};
use crate::simplify::{simplify, Limits, Stops};
use crate::trace::{try_trace, Expr, Traced};

/// The model of `urdf` with the options' armature, contacts and run-time
/// parameters set: the model every function of the module is traced on.
///
/// # Errors
/// [`GenerateError::Model`] for a URDF that does not make a model;
/// [`GenerateError::Option`] for an option the model refuses
/// ([`apply_to_model`]: an unknown joint or link name, a negative armature,
/// a contact or a parameter on a link welded to the universe, an unknown
/// frame); with [`Options::strict`], the first of [`Model::physical_warnings`].
pub fn build_model(urdf: &str, options: &Options) -> Result<Model, GenerateError> {
    let mut model = if options.mimic {
        Model::from_description_str_mimic(urdf, options.floating_base)?
    } else {
        Model::from_description_str(urdf, options.floating_base)?
    };
    apply_to_model(options, &mut model)?;
    if options.strict {
        if let Some(warning) = model.physical_warnings().into_iter().next() {
            return Err(warning.into());
        }
    }
    Ok(model)
}

/// The functions of `options` for `model`: the default set when all are
/// asked for (the contact functions only with a contact set).
fn functions_for(model: &Model, options: &Options) -> Vec<Function> {
    if options.functions.len() == Function::ALL.len() {
        return Function::default_set(model);
    }
    options.functions.iter().copied().collect()
}

/// Why code could not be generated.
#[derive(Debug, Error)]
pub enum GenerateError {
    /// The URDF does not make a model.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// Tracing produced a non-finite constant (for example a massless subtree
    /// that ABA would divide by), or a constant that the scalar type cannot hold.
    #[error("{function}: {reason}")]
    NonFinite {
        /// The function being traced.
        function: String,
        /// What went wrong.
        reason: String,
    },
    /// An option is wrong ([`Options::check`], [`apply_to_model`]): which
    /// one, which entry, and why.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// A function has more operations than [`Options::max_ops`] (displayed
    /// with the option's name; [`GenerateError::render`] spells it as a front
    /// end does).
    #[error("{}", self.render(|s| format!("`{}`", s.name)))]
    TooLarge {
        /// The function refused.
        function: String,
        /// Its operation count (at least; the count stops at the first frame
        /// of a per-frame function that passes the limit).
        ops: usize,
        /// [`Options::max_ops`].
        limit: usize,
        /// Whether the function has a column form (`minverse`, the dynamics
        /// derivatives) that a lower [`Options::unroll_limit`] would take and
        /// that writes out at most `limit` operations.
        loopable: bool,
    },
    /// The runtime refused the traced arguments (an internal error: the
    /// generator builds them from the model's sizes).
    #[error("{function}: {source}")]
    Input {
        /// The function being traced.
        function: String,
        /// What the runtime refused.
        source: rbdgen_runtime::InputError,
    },
    /// A user function's declaration is wrong ([`UserFunction::check`](crate::user::UserFunction::check)), or
    /// two user functions share a name.
    #[error("user function `{name}`: {reason}")]
    UserFunction {
        /// The user function's name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// The token stream did not parse as a Rust file (an internal error).
    #[error("generated code does not parse: {0}")]
    Syntax(String),
    /// The Python module was asked for with `scalar = f32` (its numpy arrays
    /// are `float64`).
    #[error("python: the module's arrays are float64; leave out `scalar = f32`")]
    PythonScalar,
    /// The CasADi export ([`crate::casadi`]) does not take these options.
    #[error("casadi: {0}")]
    Casadi(String),
}

impl GenerateError {
    /// The message with every option it names spelt by `spell` (the macro's
    /// `` `max_ops` ``, the command line's `--max-ops`, the build script's
    /// `max_ops()`): a wrong option as `OPTION: message`, a function above
    /// the size limit with the option that raises it; other errors as
    /// displayed.
    pub fn render(&self, spell: impl Fn(&OptionSpec) -> String) -> String {
        match self {
            GenerateError::Option(o) => format!("{}: {}", spell(o.option.spec()), o.render(spell)),
            GenerateError::TooLarge {
                function,
                ops,
                limit,
                loopable,
            } => {
                let lower = match loopable {
                    true => format!(
                        ", or lower {} to loop its columns",
                        spell(OptionKey::UnrollLimit.spec())
                    ),
                    false => String::new(),
                };
                format!(
                    "`{function}` has {ops} operations, more than the limit of {limit} per \
                     function (rustc takes about 1 ms per operation at opt-level 3): ask for \
                     fewer functions, or raise the limit with {}{lower}",
                    spell(OptionKey::MaxOps.spec())
                )
            }
            e => e.to_string(),
        }
    }
}

/// Where [`generate_module`] is, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The function is about to be traced and emitted.
    Start(Function),
    /// The function is done; its operation count.
    Done(Function, OpCounts),
    /// The function's Jacobian (`NAME_jacobian`) is about to be traced,
    /// differentiated and emitted.
    JacobianStart(Function),
    /// The Jacobian is done; its operation count.
    JacobianDone(Function, OpCounts),
}

/// A generated module before formatting: its items and what they cost.
#[derive(Clone, Debug)]
pub struct Module {
    /// The items of the module (inner doc attributes first), as
    /// [`generate_tokens`] returns them.
    pub tokens: TokenStream,
    /// The operation count of each emitted function (summed over the arms of a
    /// per-frame function), the same numbers as the header and the doc comments.
    pub op_counts: BTreeMap<Function, OpCounts>,
    /// The operation count of each function as traced, before simplification
    /// (equal to `op_counts` when [`Options::simplify`] is off).
    pub op_counts_traced: BTreeMap<Function, OpCounts>,
    /// The operation count of each emitted Jacobian (`NAME_jacobian`), keyed
    /// by its function.
    pub jacobian_op_counts: BTreeMap<Function, OpCounts>,
    /// The operation count of each emitted function of the user functions
    /// (`NAME`, `NAME_gradient`, ...), in emission order.
    pub user_op_counts: Vec<(String, OpCounts)>,
    /// What is physically impossible in the model although it loads
    /// ([`Model::physical_warnings`], empty with [`Options::strict`]), one
    /// message per item, naming the link or joint.
    pub warnings: Vec<String>,
    /// The C header of the `c_api` module with [`Options::c_api`], else `None`.
    pub c_header: Option<String>,
    /// The signature of every emitted function, in order (the table's, the
    /// Jacobians, the user functions): what the C and Python interfaces wrap.
    pub(crate) signatures: Vec<Signature>,
}

impl Module {
    /// The module as formatted Rust source, as [`generate`] returns it.
    ///
    /// # Errors
    /// [`GenerateError::Syntax`] if the tokens do not parse (an internal error).
    pub fn source(&self) -> Result<String, GenerateError> {
        let file: syn::File =
            syn::parse2(self.tokens.clone()).map_err(|e| GenerateError::Syntax(e.to_string()))?;
        Ok(prettyplease::unparse(&file))
    }
}

/// Formatted Rust source of the module for `urdf` (the items of the module;
/// wrap it in `mod NAME { ... }` or keep it as a file of its own). The file
/// starts with a header naming the rbdgen version, the URDF (`source_name`)
/// and its SHA-256, and the options; it is byte-identical from run to run.
///
/// # Errors
/// [`GenerateError`] for a URDF that does not make a model or a trace that
/// produces a non-finite constant.
pub fn generate(urdf: &str, options: &Options) -> Result<String, GenerateError> {
    generate_module(urdf, options, |_| {})?.source()
}

/// The module items for `urdf` as tokens; see [`generate`].
///
/// # Errors
/// As [`generate`].
pub fn generate_tokens(urdf: &str, options: &Options) -> Result<TokenStream, GenerateError> {
    Ok(generate_module(urdf, options, |_| {})?.tokens)
}

/// The work behind [`generate`]: traces and emits each function of
/// `options.functions` in order, calling `progress` before and after each.
///
/// # Errors
/// As [`generate`].
pub fn generate_module(
    urdf: &str,
    options: &Options,
    mut progress: impl FnMut(Progress),
) -> Result<Module, GenerateError> {
    options.check()?;
    if options.contact_sets.is_empty() {
        return generate_one(urdf, options, options, None, &mut progress);
    }
    // The top: every function but the contact ones (unless `contacts` gives
    // them a set there too); then one submodule per set with those.
    // Every set checked against the model before any is traced.
    build_model(urdf, options)?;
    let mut sets = Vec::new();
    for (name, set) in &options.contact_sets {
        let all = options.functions.len() == Function::ALL.len();
        let sub = Options {
            contacts: set.clone(),
            functions: if all {
                Function::ALL
                    .into_iter()
                    .filter(|f| f.needs_contacts())
                    .collect()
            } else {
                options
                    .functions
                    .iter()
                    .copied()
                    .filter(|f| f.needs_contacts())
                    .collect()
            },
            jacobians: options
                .jacobians
                .iter()
                .copied()
                .filter(|f| f.needs_contacts())
                .collect(),
            user_functions: Vec::new(),
            c_api: None,
            contact_sets: Vec::new(),
            ..options.clone()
        };
        let m = generate_one(urdf, &sub, &sub, Some(name), &mut progress)?;
        let ident = Ident::new(name, Span::call_site());
        let mut tokens = m.tokens;
        if set.is_empty() {
            // The constants a set with contacts has ([`crate::api`]).
            tokens.extend(quote! {
                /// Rows of the contact set: none (flight).
                pub const NC: usize = 0;
                /// The contact set: empty (flight).
                pub const CONTACTS: [(&str, usize); 0] = [];
            });
        }
        let doc = format!(" The contact set `{name}`: its contact functions, `NC` and `CONTACTS`.");
        sets.push(quote! {
            #[doc = #doc]
            pub mod #ident {
                #tokens
                #[allow(unused_imports)]
                use super::*;
            }
        });
    }
    let mut module = generate_top(urdf, options, &mut progress)?;
    module.tokens.extend(sets);
    Ok(module)
}

/// The top of a module with contact sets: [`generate_one`] without the
/// contact functions when `contacts` is empty; its header names all of
/// `options`.
fn generate_top(
    urdf: &str,
    options: &Options,
    progress: &mut impl FnMut(Progress),
) -> Result<Module, GenerateError> {
    let mut top = Options {
        contact_sets: Vec::new(),
        ..options.clone()
    };
    if options.contacts.is_empty() {
        top = without_contact_functions(&top);
    }
    generate_one(urdf, &top, options, None, progress)
}

/// `options` without its contact functions.
fn without_contact_functions(options: &Options) -> Options {
    let all = options.functions.len() == Function::ALL.len();
    Options {
        functions: if all {
            Function::ALL
                .into_iter()
                .filter(|f| !f.needs_contacts())
                .collect()
        } else {
            options
                .functions
                .iter()
                .copied()
                .filter(|f| !f.needs_contacts())
                .collect()
        },
        jacobians: options
            .jacobians
            .iter()
            .copied()
            .filter(|f| !f.needs_contacts())
            .collect(),
        ..options.clone()
    }
}

/// One module: [`generate_module`] without contact sets, its header naming
/// `header_options`; `set` names the contact set of a set's submodule (which
/// may be empty).
fn generate_one(
    urdf: &str,
    options: &Options,
    header_options: &Options,
    set: Option<&str>,
    progress: &mut impl FnMut(Progress),
) -> Result<Module, GenerateError> {
    let model = build_model(urdf, options)?;
    let warnings = model
        .physical_warnings()
        .iter()
        .map(ToString::to_string)
        .collect();
    let functions = if set.is_some() {
        options.functions.iter().copied().collect()
    } else {
        functions_for(&model, options)
    };
    let jacobians: Vec<Function> = options.jacobians.iter().copied().collect();
    let mut signatures = Vec::new();
    let mut items = Vec::new();
    let mut lane_items = Vec::new();
    let mut op_counts = BTreeMap::new();
    let mut op_counts_traced = BTreeMap::new();
    let mut stops = Stops::default();
    for &function in &functions {
        progress(Progress::Start(function));
        let (item, traced, counts) = emit_function(&model, function, options)?;
        progress(Progress::Done(function, counts));
        signatures.push(item.signature);
        items.push(item.scalar);
        lane_items.extend(item.lanes);
        stops += item.stops;
        op_counts.insert(function, counts);
        op_counts_traced.insert(function, traced);
    }
    let mut jacobian_op_counts = BTreeMap::new();
    for function in jacobians {
        progress(Progress::JacobianStart(function));
        let (item, _, counts) = emit_jacobian(&model, function, options)?;
        progress(Progress::JacobianDone(function, counts));
        signatures.push(item.signature);
        items.push(item.scalar);
        lane_items.extend(item.lanes);
        stops += item.stops;
        jacobian_op_counts.insert(function, counts);
    }
    let mut user_op_counts = Vec::new();
    for (k, f) in options.user_functions.iter().enumerate() {
        let refuse = |reason: String| GenerateError::UserFunction {
            name: f.name.clone(),
            reason,
        };
        f.check().map_err(refuse)?;
        if options.user_functions[..k].iter().any(|g| g.name == f.name) {
            return Err(refuse("two user functions have this name".into()));
        }
        // Each item `NAME` comes with `NAME_into`: no name twice in the module.
        let names = |g: &crate::UserFunction| -> Vec<String> {
            let items = g.items().into_iter().map(|p| p.name(&g.name));
            items.flat_map(|n| [format!("{n}_into"), n]).collect()
        };
        let ours = names(f);
        if let Some((g, n)) = options.user_functions[..k].iter().find_map(|g| {
            names(g)
                .into_iter()
                .find(|n| ours.contains(n))
                .map(|n| (g, n))
        }) {
            return Err(refuse(format!(
                "`{n}` would be generated for it and for user function `{}`",
                g.name
            )));
        }
        for part in f.items() {
            let signature = Signature {
                name: part.name(&f.name),
                args: f.inputs.clone(),
                per_frame: false,
                output: part.output(f, &model),
                doc: part.doc(f),
                ops: 0,
            };
            let (item, _, counts) =
                emit_traced(&model, &signature, options, |_| part.trace(f, &model))?;
            signatures.push(item.signature);
            items.push(item.scalar);
            lane_items.extend(item.lanes);
            stops += item.stops;
            user_op_counts.push((signature.name, counts));
        }
    }
    let header = header_doc(
        &model,
        urdf,
        header_options,
        &op_counts,
        &op_counts_traced,
        &jacobian_op_counts,
        &user_op_counts,
        &stops,
    );
    let constants = constants(&model, options);
    let mul_add = mul_add_helper(&options.scalar.ty(), options.std);
    let sincos4 = sincos4_helper(options.scalar);
    let tuple_arity = signatures
        .iter()
        .map(|s| match s.output {
            Output::Tuple(parts) => parts.len(),
            _ => 0,
        })
        .max()
        .unwrap_or(0);
    let lanes = options.lanes.map(|l| {
        lanes_module(
            l,
            options.scalar,
            options.std,
            options.threads,
            tuple_arity,
            &lane_items,
        )
    });
    let c_api = options
        .c_api
        .as_ref()
        .map(|prefix| c_api_module(options, &signatures, prefix));
    let c_header = options
        .c_api
        .as_ref()
        .map(|prefix| c_header(&model, options, &signatures, prefix, &header));
    let tokens = quote! {
        #(#![doc = #header])*
        // `cargo fmt` leaves the file as generated, so that `--check` still holds.
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #![allow(clippy::all, clippy::pedantic, clippy::nursery, non_snake_case, dead_code)]

        #constants
        #(#items)*
        #mul_add
        #sincos4
        #lanes
        #c_api
    };
    Ok(Module {
        tokens,
        op_counts,
        op_counts_traced,
        jacobian_op_counts,
        user_op_counts,
        warnings,
        c_header,
        signatures,
    })
}

/// A non-finite constant in a trace is an error; when the model has a moving
/// joint with a massless subtree (a singular mass matrix, the usual cause in
/// `aba`), the error names that joint, and when no moving body has mass (the
/// centre of mass), it says so. So is a constant that the scalar type cannot
/// represent.
pub(crate) fn check(
    model: &Model,
    traced: &Traced,
    name: &str,
    scalar: ScalarType,
) -> Result<(), GenerateError> {
    let error = |reason: String| GenerateError::NonFinite {
        function: name.to_string(),
        reason,
    };
    if let Some(reason) = traced.graph.non_finite() {
        let moving_mass: f64 = model.joints[1..].iter().map(|j| j.inertia.mass).sum();
        return Err(error(match model.check_massless_subtrees() {
            Err(e) => e.to_string(),
            Ok(()) if moving_mass == 0.0 => format!(
                "{reason}: the moving bodies have no mass (the centre of mass is 0/0); \
                 leave this function out"
            ),
            Ok(()) => reason.to_string(),
        }));
    }
    let live = traced.graph.reachable(&traced.outputs);
    for (node, live) in traced.graph.nodes().iter().zip(live) {
        if let (Node::Const(bits), true) = (node, live) {
            let x = f64::from_bits(*bits);
            if !scalar.represents(x) {
                return Err(error(format!(
                    "the constant {x:e} does not fit in {}",
                    scalar.name()
                )));
            }
        }
    }
    Ok(())
}

/// A function's emitted items: the scalar function (with its parts) and,
/// with lanes, the `L`-lane function, its array-of-structures wrapper and its
/// batch function for the `lanes` module.
pub(crate) struct FunctionItems {
    pub(crate) scalar: TokenStream,
    pub(crate) lanes: Option<TokenStream>,
    /// Why egg stopped in the windows of the function's simplification
    /// (none without [`Options::simplify`]).
    pub(crate) stops: Stops,
    /// The function's signature, which the C interface wraps.
    pub(crate) signature: Signature,
}

/// What emission needs to know of a function besides its graphs: a
/// function of the table ([`Function::spec`]) or the Jacobian of one.
#[derive(Clone, Debug)]
pub(crate) struct Signature {
    pub(crate) name: String,
    pub(crate) args: Vec<(String, Dim)>,
    pub(crate) per_frame: bool,
    pub(crate) output: Output,
    pub(crate) doc: Vec<String>,
    /// The operations one state runs (one frame's, for a per-frame function),
    /// which sizes the tasks of the threaded batch: set by emission, 0 before.
    pub(crate) ops: usize,
}

/// One function of the table: traced (once per link frame for per-frame
/// functions), simplified when asked, emitted (in lanes too when asked),
/// documented with its operation count; returns the items and the operation
/// counts as traced and as emitted.
fn emit_function(
    model: &Model,
    function: Function,
    options: &Options,
) -> Result<(FunctionItems, OpCounts, OpCounts), GenerateError> {
    let spec = function.spec();
    let signature = Signature {
        name: spec.name.to_string(),
        args: named(function.args(model)),
        per_frame: spec.per_frame,
        output: spec.output,
        doc: spec.doc.iter().map(|l| l.to_string()).collect(),
        ops: 0,
    };
    let lens: Vec<usize> = signature.args.iter().map(|(_, d)| d.len(model)).collect();
    let forms = function.columns::<Expr>(model);
    if let Some(form) = choose_columns(model, &signature, &forms, options)? {
        return emit_columns(model, &signature, form, options);
    }
    let emitted = emit_traced(model, &signature, options, |frame| {
        try_trace(&lens, |x| {
            let mut data = Data::<Expr>::new(model);
            function.evaluate(model, &mut data, x, frame)
        })
    });
    emitted.map_err(|e| match e {
        GenerateError::TooLarge {
            function,
            ops,
            limit,
            ..
        } => GenerateError::TooLarge {
            loopable: looped_fits(model, &signature, &forms, limit),
            function,
            ops,
            limit,
        },
        e => e,
    })
}

/// The Jacobian of a function of the table, `NAME_jacobian`
/// ([`crate::jacobian`]): emitted as a function of the table is.
fn emit_jacobian(
    model: &Model,
    function: Function,
    options: &Options,
) -> Result<(FunctionItems, OpCounts, OpCounts), GenerateError> {
    let spec = function.spec();
    let args = function.args(model);
    let blocks: Vec<String> = args
        .iter()
        .map(|(name, dim)| match dim {
            Dim::Nq => format!("`d_d{name}` (tangent space, `NV` columns)"),
            _ => format!("`d_d{name}`"),
        })
        .collect();
    let doc = vec![
        format!(
            "The Jacobian of [`{}`] by automatic differentiation of its traced graph:",
            spec.name
        ),
        format!(
            "`({})`, one block per argument, a row per output scalar (flattened row-major).",
            blocks.join(", ")
        ),
        "A configuration's block is in the tangent space: the derivative at `δ = 0` of the".into(),
        "function at `integrate(q, δ)`, as Pinocchio's derivatives.".into(),
    ];
    let signature = Signature {
        name: format!("{}_jacobian", spec.name),
        args: named(args),
        per_frame: spec.per_frame,
        output: jacobian_output(function, model),
        doc,
        ops: 0,
    };
    emit_traced(model, &signature, options, |frame| {
        trace_jacobian(model, function, frame)
    })
}

/// The table's argument names as owned strings.
fn named(args: Vec<(&'static str, Dim)>) -> Vec<(String, Dim)> {
    args.into_iter().map(|(n, d)| (n.to_string(), d)).collect()
}

/// A function given by its signature and its trace (`trace(frame)`, once per
/// link frame for a per-frame function): checked, simplified when asked,
/// emitted (in lanes too when asked), documented with its operation count;
/// returns the items and the operation counts as traced and as emitted.
fn emit_traced(
    model: &Model,
    spec: &Signature,
    options: &Options,
    mut trace_at: impl FnMut(Option<usize>) -> Result<Traced, rbdgen_runtime::InputError>,
) -> Result<(FunctionItems, OpCounts, OpCounts), GenerateError> {
    let scalar = options.scalar;
    let fargs: Vec<(&str, Dim)> = spec.args.iter().map(|(n, d)| (n.as_str(), *d)).collect();
    let fargs = &fargs;
    let args: Vec<(&str, usize)> = fargs.iter().map(|(n, d)| (*n, d.len(model))).collect();
    let row_len: Vec<Option<usize>> = fargs.iter().map(|(_, d)| d.row_len()).collect();
    let shape = output_shape(&spec.output, model);
    let names: Vec<Ident> = fargs
        .iter()
        .map(|(n, _)| Ident::new(n, Span::call_site()))
        .collect();
    // The traced graphs: one per selected frame, or one.
    let frames: Vec<Option<(usize, Ident)>> = if spec.per_frame {
        let mut taken = BTreeSet::new();
        selected_frames(model, options)
            .into_iter()
            .map(|(id, f)| Some((id, variant_name(&f.name, &mut taken))))
            .collect()
    } else {
        vec![None]
    };
    let mut counts = OpCounts::default();
    let mut traced_counts = OpCounts::default();
    let mut stops = Stops::default();
    let mut schedules = Vec::with_capacity(frames.len());
    let (mut packings, mut graphs) = (Vec::new(), Vec::new());
    let dims: Vec<Dim> = fargs.iter().map(|(_, d)| *d).collect();
    for frame in &frames {
        let mut traced =
            trace_at(frame.as_ref().map(|f| f.0)).map_err(|source| GenerateError::Input {
                function: spec.name.clone(),
                source,
            })?;
        check(model, &traced, &spec.name, scalar)?;
        traced_counts += traced.graph.op_counts(&traced.outputs);
        traced = simplified(model, traced, &spec.name, options, &mut stops)?;
        counts += traced.graph.op_counts(&traced.outputs);
        if counts.total() > options.max_ops {
            return Err(GenerateError::TooLarge {
                function: spec.name.clone(),
                ops: counts.total(),
                limit: options.max_ops,
                loopable: false,
            });
        }
        schedules.push(schedule(
            &traced.graph,
            &traced.outputs,
            WHOLE_LEN,
            PART_LEN,
        ));
        packings.push(match options.one_limb_at_a_time {
            true => None,
            false => limbs_side_by_side(model, &traced, &dims),
        });
        graphs.push(traced);
    }
    // The limbs side by side for every frame, or not at all.
    let packed = packings.iter().all(Option::is_some);
    if packed {
        counts.in_lanes = packings.iter().flatten().map(Packing::in_lanes).sum();
    }
    let name = Ident::new(&spec.name, Span::call_site());
    // The function in one arithmetic: its item and its parts.
    let emit = |arith: Arith| -> TokenStream {
        let ty = match arith {
            Arith::Scalar => scalar.ty(),
            Arith::Lanes => quote!(V),
        };
        let math = match arith {
            Arith::Scalar => quote!(libm),
            Arith::Lanes => quote!(V),
        };
        let params = arg_params(fargs, &ty);
        let ret = output_type(&spec.output, &ty);
        // The scalar function keeps its result local (`let mut out = ..`,
        // returned), so that LLVM stores straight into the caller's; its
        // `NAME_into` writes into `out` without the fill. Split into parts,
        // both are calls of the same parts; in one block, `NAME_into` copies
        // `NAME`'s result (a second copy of the block would double its build
        // time, and `NAME` written as a call of `NAME_into` copies its
        // result after the call or, inlined, ran Go2+Z1's `crba` about 20 %
        // slower in scripts/bench).
        // The lanes kernel is always written into `out` (its batches' form).
        let split =
            schedules.iter().all(|s| s.parts.len() > 1) && !(packed && arith == Arith::Scalar);
        let mut parts = Vec::new();
        let (mut blocks, mut into_blocks) = (Vec::new(), Vec::new());
        for (frame, schedule) in frames.iter().zip(&schedules) {
            // `Spill` between the function and the frame keeps the names apart
            // (`frame_jacobian_local` of link `world_aligned_x` against
            // `frame_jacobian_local_world_aligned` of link `x`).
            let function = upper_camel(&spec.name);
            let (prefix, spill) = match frame {
                Some((_, variant)) => (
                    format!("{}_{variant}_part", spec.name),
                    format!("{function}Spill{variant}"),
                ),
                None => (format!("{}_part", spec.name), format!("{function}Spill")),
            };
            // Split into parts, the scalar function and its `NAME_into` share
            // one printing (the parts); in one block, `NAME_into` copies.
            let into = arith == Arith::Lanes || split;
            if packed && arith == Arith::Scalar {
                let k = blocks.len();
                let (traced, packing) = (&graphs[k], packings[k].as_ref().expect("packed"));
                let inputs = Inputs {
                    args: &args,
                    row_len: &row_len,
                    splat: 0,
                };
                let (graph, outputs) = (&traced.graph, &traced.outputs);
                blocks.push(print_packed(
                    graph, outputs, packing, &shape, &inputs, &math, scalar, false,
                ));
                continue;
            }
            let emitted = print(
                schedule,
                &shape,
                &Inputs {
                    args: &args,
                    row_len: &row_len,
                    splat: 0,
                },
                &math,
                scalar,
                arith,
                &Split {
                    prefix: &prefix,
                    spill: &spill,
                    params: &params,
                    names: &names,
                    output: &ret,
                },
                into,
            );
            parts.extend(emitted.parts);
            match (arith, emitted.by_value) {
                (Arith::Scalar, Some(by_value)) => {
                    blocks.push(by_value);
                    into_blocks.push(emitted.block);
                }
                (Arith::Scalar, None) => blocks.push(emitted.block),
                (Arith::Lanes, _) => into_blocks.push(emitted.block),
            }
        }
        let body = |blocks: Vec<TokenStream>| -> TokenStream {
            if spec.per_frame {
                let arms = frames.iter().zip(&blocks).map(|(f, block)| {
                    let variant = &f.as_ref().expect("a frame per arm").1;
                    quote!(Frame::#variant => #block)
                });
                quote!({ match frame { #(#arms),* } })
            } else {
                blocks.into_iter().next().expect("one block")
            }
        };
        let frame_param = spec.per_frame.then(|| quote!(frame: Frame));
        let params: Vec<&TokenStream> = params.iter().chain(frame_param.as_ref()).collect();
        let mut doc = function_doc(spec, arith, &counts, &traced_counts, options);
        if packed && arith == Arith::Scalar {
            let v = format!("{}x{}", scalar.name(), limbs::LANES);
            doc.push(format!(
                " Written with its limbs side by side: the limbs of one shape (the legs of a \
                 quadruped, the arms of a humanoid) one per lane of `wide`'s `{v}`, so that one \
                 vector operation does the work of each limb's; the rest one value at a time."
            ));
        }
        let frame_arg = spec.per_frame.then(|| quote!(frame,));
        let into_name = format_ident!("{}_into", spec.name);
        if arith == Arith::Scalar {
            let (into_doc, into_body) = if split {
                (
                    into_doc(&spec.name, arith, spec.per_frame),
                    body(into_blocks),
                )
            } else {
                let doc = format!(
                    " [`{}`]'s result copied into `out` (every entry written): in one block, \
                     the function has no form that skips the fill of its zeros.",
                    spec.name
                );
                (doc, quote!({ *out = #name(#(#names,)* #frame_arg); }))
            };
            let body = body(blocks);
            return quote! {
                #(#[doc = #doc])*
                #[allow(unused_variables)]
                pub fn #name(#(#params),*) -> #ret #body
                #[doc = #into_doc]
                #[allow(unused_variables)]
                pub fn #into_name(#(#params,)* out: &mut #ret) #into_body
                #(#parts)*
            };
        }
        let into = into_doc(&spec.name, arith, spec.per_frame);
        let body = body(into_blocks);
        quote! {
            #(#[doc = #doc])*
            pub fn #name(#(#params),*) -> #ret {
                let mut out = <#ret as Lanes>::zero();
                #into_name(#(#names,)* #frame_arg &mut out);
                out
            }
            #[doc = #into]
            #[allow(unused_variables)]
            pub(super) fn #into_name(#(#params,)* out: &mut #ret) #body
            #(#parts)*
        }
    };
    let ops = counts.total() / frames.len().max(1);
    let items = function_items(spec, fargs, options, stops, ops, emit);
    Ok((items, traced_counts, counts))
}

/// The limbs of `model` side by side in `traced` ([`crate::limbs::pack`]),
/// when that writes at least a tenth fewer statements, and at least
/// [`MIN_SAVED`] fewer, in one block of at most [`PACKED_LEN`].
pub(crate) fn limbs_side_by_side(model: &Model, traced: &Traced, args: &[Dim]) -> Option<Packing> {
    let packing = limbs::pack(model, &traced.graph, &traced.outputs, args, PACKED_LEN)?;
    let (ops, items) = packing.counts();
    let saved = ops - items;
    (items <= PACKED_LEN && 10 * saved >= ops && saved >= MIN_SAVED).then_some(packing)
}

/// The most statements of a function with its limbs side by side, which is
/// one block (no parts). G1's `rnea_derivatives` (15,934 statements for
/// 29,508 operations) built in 15.5 s against 13.3 s straight-line in parts,
/// and ran 1.38x as fast; its `minverse` (12,494) in 8.3 s against 5.5 s
/// (two copies in one crate, `-C target-cpu=native`, 2 vCPU AMD EPYC).
/// The stage of G1's `aba_derivatives` (21,784 statements for 39,314
/// operations) took its median time from 17.2 to 14.2 µs and its machine
/// code from 509 to 386 KiB; a crate with both forms built in 22 s.
const PACKED_LEN: usize = 25_000;

/// The fewest statements that the limbs side by side must save: a function
/// of a few dozen operations (a 3-link tree's `rnea`) keeps its plain form.
const MIN_SAVED: usize = 64;

/// The doc of a function's `NAME_into`, in `arith`.
pub(crate) fn into_doc(name: &str, arith: Arith, per_frame: bool) -> String {
    let same = if per_frame { " for the same frame" } else { "" };
    match arith {
        Arith::Scalar => format!(
            " [`{name}`] into `out`, which must hold zeros where the result is a constant zero \
             (a result zeroed once, or one this function wrote before{same}): every other entry is \
             written. A controller that keeps its result from call to call, as Pinocchio keeps \
             its `Data`, skips the fill of the zeros (a mass matrix's blocks between two limbs, \
             say), which [`{name}`] does on every call."
        ),
        Arith::Lanes => format!(
            " [`{name}`] into `out`, which holds zeros where the result is a constant zero: \
             every other entry is written. The batch functions call it on one result zeroed \
             once."
        ),
    }
}

/// A function's items from its emission in each arithmetic (`emit`): the
/// scalar function, and with lanes the lanes kernel and its wrappers.
pub(crate) fn function_items(
    spec: &Signature,
    fargs: &[(&str, Dim)],
    options: &Options,
    stops: Stops,
    ops: usize,
    emit: impl Fn(Arith) -> TokenStream,
) -> FunctionItems {
    FunctionItems {
        stops,
        signature: Signature {
            ops,
            ..spec.clone()
        },
        scalar: emit(Arith::Scalar),
        lanes: options.lanes.map(|_| {
            let kernel = emit(Arith::Lanes);
            let wrappers = lane_wrappers(
                &spec.name,
                fargs,
                &spec.output,
                spec.per_frame,
                options.scalar,
                options.threads,
                ops,
            );
            quote!(#kernel #wrappers)
        }),
    }
}

/// `traced` (already checked) simplified with egg when the options ask for
/// it, and checked again; egg's stops added to `stops`.
pub(crate) fn simplified(
    model: &Model,
    traced: Traced,
    name: &str,
    options: &Options,
    stops: &mut Stops,
) -> Result<Traced, GenerateError> {
    if !options.simplify {
        return Ok(traced);
    }
    let s = simplify(&traced.graph, &traced.outputs, &Limits::default());
    *stops += s.stops;
    let traced = Traced {
        graph: s.graph,
        outputs: s.outputs,
    };
    check(model, &traced, name, options.scalar)?;
    Ok(traced)
}

/// A function's doc lines in `arith`: the table's lines and its cost (with
/// the count before simplification when simplified) for the scalar
/// function, one line pointing at it for the lanes kernel.
pub(crate) fn function_doc(
    spec: &Signature,
    arith: Arith,
    counts: &OpCounts,
    traced: &OpCounts,
    options: &Options,
) -> Vec<String> {
    match arith {
        Arith::Scalar => {
            let lines = spec.doc.iter().map(|l| match l.is_empty() {
                true => String::new(),
                false => format!(" {l}"),
            });
            let mut doc: Vec<String> = lines.collect();
            doc.push(String::new());
            doc.push(format!(" Cost: {counts}."));
            if options.simplify {
                doc.push(format!(" Before simplification: {} ops.", traced.total()));
            }
            doc
        }
        Arith::Lanes => vec![format!(
            " [`super::{}`] on `L` states at once: every argument and result value is a `V`, one \
             state per lane (structure of arrays); the same operations, lane by lane.",
            spec.name
        )],
    }
}

/// `aba_derivatives` → `AbaDerivatives`.
pub(crate) fn upper_camel(snake: &str) -> String {
    snake
        .split('_')
        .flat_map(|piece| {
            let mut chars = piece.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase())
                .into_iter()
                .chain(chars)
        })
        .collect()
}
