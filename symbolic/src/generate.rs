//! The assembly, the generator's top floor: model text and options in,
//! formatted Rust out. The macro, the CLI and build scripts all call
//! [`generate_module`] (or [`generate`]), so a committed file and the
//! macro's module are the same code. Per function (a [`Job`]: the table's,
//! a Jacobian, a user function's item): its signature, its form
//! ([`crate::form`]), its items ([`crate::item`]); around them the header
//! ([`crate::header`]), the module's constants ([`crate::api`]) and the
//! outputs the options ask for (lanes, C).

use std::collections::BTreeMap;

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use rbdgen_runtime::{Data, Model};

use crate::api::{constants, mul_add_helper, sincos4_helper};
use crate::error::GenerateError;
use crate::form::choose_form;
use crate::functions::{Dim, Function};
use crate::graph::OpCounts;
use crate::header::header_doc;
use crate::interface::{interfaces, Finished, Interface};
use crate::item::{FunctionItems, Signature};
use crate::jacobian::{jacobian_output, trace_jacobian};
use crate::options::Options;
use crate::prepare::build_model;
use crate::simplify::Stops;
use crate::trace::{try_trace, Expr, Traced};
use crate::user::{UserFunction, UserItem};

/// The functions of the table that a module generated with `options` for
/// `model` holds, in emission order: the options' set, or, when that is
/// every function, [`Function::default_set`] (the contact functions only
/// with a contact set).
pub fn module_functions(model: &Model, options: &Options) -> Vec<Function> {
    if options.functions.len() == Function::ALL.len() {
        return Function::default_set(model);
    }
    options.functions.iter().copied().collect()
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
    /// The items of the module (inner doc attributes first): what
    /// `robot_dynamics!` wraps in its `mod`.
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
    /// The files the interfaces write beside the module
    /// (the interfaces of the C API and the Python module): a name and the text (the C header
    /// `PREFIX.h`; a Python crate's `src/lib.rs`).
    pub files: Vec<(String, String)>,
    /// The functions of the table the module holds, in order
    /// ([`module_functions`]; a contact set's submodule: its own).
    pub functions: Vec<Function>,
    /// The link frames of its per-frame functions, `(frame index, name)`
    /// ([`module_frames`]).
    pub frames: Vec<(usize, String)>,
    /// The model the functions were traced on ([`build_model`]): the
    /// options' armature, contacts and run-time parameters set.
    pub model: Model,
}

impl Module {
    /// The C header of the `c_api` module with [`Options::c_api`] (the file
    /// `PREFIX.h` of [`Module::files`]), else `None`.
    pub fn c_header(&self) -> Option<&str> {
        let header = self.files.iter().find(|(name, _)| name.ends_with(".h"));
        header.map(|(_, text)| text.as_str())
    }

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

/// The work behind [`generate`]: traces and emits each function of
/// `options.functions` in order, calling `progress` before and after each.
///
/// # Errors
/// As [`generate`].
pub fn generate_module(
    urdf: &str,
    options: &Options,
    progress: impl FnMut(Progress),
) -> Result<Module, GenerateError> {
    generate_with(urdf, options, Vec::new(), progress)
}

/// [`generate_module`] with `extra` interfaces besides those of the options
/// (the Python module of a Python crate), on the top module.
pub(crate) fn generate_with(
    urdf: &str,
    options: &Options,
    extra: Vec<Box<dyn Interface>>,
    mut progress: impl FnMut(Progress),
) -> Result<Module, GenerateError> {
    options.check()?;
    if options.contact_sets.is_empty() {
        return generate_one(urdf, options, options, None, extra, &mut progress);
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
        let m = generate_one(urdf, &sub, &sub, Some(name), Vec::new(), &mut progress)?;
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
    let mut module = generate_top(urdf, options, extra, &mut progress)?;
    module.tokens.extend(sets);
    Ok(module)
}

/// The top of a module with contact sets: [`generate_one`] without the
/// contact functions when `contacts` is empty; its header names all of
/// `options`.
fn generate_top(
    urdf: &str,
    options: &Options,
    extra: Vec<Box<dyn Interface>>,
    progress: &mut impl FnMut(Progress),
) -> Result<Module, GenerateError> {
    let mut top = Options {
        contact_sets: Vec::new(),
        ..options.clone()
    };
    if options.contacts.is_empty() {
        top = without_contact_functions(&top);
    }
    generate_one(urdf, &top, options, None, extra, progress)
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
    extra: Vec<Box<dyn Interface>>,
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
        module_functions(&model, options)
    };
    check_user_functions(&options.user_functions)?;
    let jobs = (functions.iter().map(|&f| Job::Table(f)))
        .chain(options.jacobians.iter().map(|&f| Job::Jacobian(f)))
        .chain(
            options
                .user_functions
                .iter()
                .flat_map(|f| f.items().into_iter().map(move |item| Job::User(f, item))),
        );
    let mut interfaces = interfaces(options);
    interfaces.extend(extra);
    let mut signatures = Vec::new();
    let mut items = Vec::new();
    let mut op_counts = BTreeMap::new();
    let mut op_counts_traced = BTreeMap::new();
    let mut jacobian_op_counts = BTreeMap::new();
    let mut user_op_counts = Vec::new();
    let mut stops = Stops::default();
    for job in jobs {
        job.progress(progress, None);
        let (item, traced, counts) = job.emit(&model, options)?;
        job.progress(progress, Some(counts));
        match job {
            Job::Table(f) => {
                op_counts.insert(f, counts);
                op_counts_traced.insert(f, traced);
            }
            Job::Jacobian(f) => _ = jacobian_op_counts.insert(f, counts),
            Job::User(..) => user_op_counts.push((item.signature.name.clone(), counts)),
        }
        for interface in &mut interfaces {
            interface.function(&item);
        }
        signatures.push(item.signature);
        items.push(item.scalar);
        stops += item.stops;
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
    let finished = Finished {
        model: &model,
        options,
        signatures: &signatures,
        header: &header,
    };
    let outputs: Vec<TokenStream> = interfaces.iter().map(|i| i.items(&finished)).collect();
    let mut files = Vec::new();
    for interface in &interfaces {
        files.extend(interface.files(&finished)?);
    }
    let tokens = quote! {
        #(#![doc = #header])*
        // `cargo fmt` leaves the file as generated, so that `--check` still holds.
        #![cfg_attr(rustfmt, rustfmt::skip)]
        #![allow(clippy::all, clippy::pedantic, clippy::nursery, non_snake_case, dead_code)]

        #constants
        #(#items)*
        #mul_add
        #sincos4
        #(#outputs)*
    };
    let frames = module_frames(&model, options);
    Ok(Module {
        tokens,
        op_counts,
        op_counts_traced,
        jacobian_op_counts,
        user_op_counts,
        warnings,
        files,
        functions,
        frames,
        model,
    })
}

/// The user functions' declarations checked ([`UserFunction::check`]), and
/// no name of a generated item twice.
fn check_user_functions(user_functions: &[UserFunction]) -> Result<(), GenerateError> {
    for (k, f) in user_functions.iter().enumerate() {
        let refuse = |reason: String| GenerateError::UserFunction {
            name: f.name.clone(),
            reason,
        };
        f.check().map_err(refuse)?;
        if user_functions[..k].iter().any(|g| g.name == f.name) {
            return Err(refuse("two user functions have this name".into()));
        }
        // Each item `NAME` comes with `NAME_into`: no name twice in the module.
        let names = |g: &UserFunction| -> Vec<String> {
            let items = g.items().into_iter().map(|p| p.name(&g.name));
            items.flat_map(|n| [format!("{n}_into"), n]).collect()
        };
        let ours = names(f);
        if let Some((g, n)) = user_functions[..k].iter().find_map(|g| {
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
    }
    Ok(())
}

/// One function the module holds: a function of the table, the Jacobian of
/// one (`NAME_jacobian`, [`crate::jacobian`]), or an item of a user function
/// (`NAME`, `NAME_gradient`, ..., [`crate::user`]). Each is traced, put in
/// its form ([`choose_form`]) and written the same way.
#[derive(Clone, Copy)]
enum Job<'a> {
    Table(Function),
    Jacobian(Function),
    User(&'a UserFunction, UserItem),
}

impl Job<'_> {
    /// Tells `progress` that the job starts (`done` none) or is done.
    fn progress(&self, progress: &mut impl FnMut(Progress), done: Option<OpCounts>) {
        match (*self, done) {
            (Job::Table(f), None) => progress(Progress::Start(f)),
            (Job::Table(f), Some(c)) => progress(Progress::Done(f, c)),
            (Job::Jacobian(f), None) => progress(Progress::JacobianStart(f)),
            (Job::Jacobian(f), Some(c)) => progress(Progress::JacobianDone(f, c)),
            (Job::User(..), _) => {}
        }
    }

    /// The job's function traced (once per link frame for per-frame
    /// functions), simplified when asked, written in its form (in lanes too
    /// when asked) and documented with its operation count: its items and
    /// the operation counts as traced and as emitted.
    fn emit(
        &self,
        model: &Model,
        options: &Options,
    ) -> Result<(FunctionItems, OpCounts, OpCounts), GenerateError> {
        let signature = self.signature(model);
        let columns = match *self {
            Job::Table(f) => f.columns::<Expr>(model),
            _ => Vec::new(),
        };
        let form = choose_form(model, &signature, &columns, options, |frame| {
            self.trace(model, &signature, frame)
        })?;
        form.emit(model, &signature, options)
    }

    /// The job's signature: its name, arguments, output and doc lines.
    fn signature(&self, model: &Model) -> Signature {
        match *self {
            Job::Table(function) => {
                let spec = function.spec();
                Signature {
                    name: spec.name.to_string(),
                    args: named(function.args(model)),
                    per_frame: spec.per_frame,
                    output: spec.output,
                    doc: spec.doc.iter().map(|l| l.to_string()).collect(),
                    ops: 0,
                }
            }
            Job::Jacobian(function) => Signature {
                name: format!("{}_jacobian", function.name()),
                args: named(function.args(model)),
                per_frame: function.spec().per_frame,
                output: jacobian_output(function, model),
                doc: jacobian_doc(function, model),
                ops: 0,
            },
            Job::User(f, item) => Signature {
                name: item.name(&f.name),
                args: f.inputs.clone(),
                per_frame: false,
                output: item.output(f, model),
                doc: item.doc(f),
                ops: 0,
            },
        }
    }

    /// The job's graph at `frame` (a per-frame function's link frame).
    fn trace(
        &self,
        model: &Model,
        signature: &Signature,
        frame: Option<usize>,
    ) -> Result<Traced, rbdgen_runtime::InputError> {
        match *self {
            Job::Table(function) => {
                let lens: Vec<usize> = signature.args.iter().map(|(_, d)| d.len(model)).collect();
                try_trace(&lens, |x| {
                    let mut data = Data::<Expr>::new(model);
                    function.evaluate(model, &mut data, x, frame)
                })
            }
            Job::Jacobian(function) => trace_jacobian(model, function, frame),
            Job::User(f, item) => item.trace(f, model),
        }
    }
}

/// The doc lines of `function`'s Jacobian, `NAME_jacobian`.
fn jacobian_doc(function: Function, model: &Model) -> Vec<String> {
    let blocks: Vec<String> = (function.args(model).iter())
        .map(|(name, dim)| match dim {
            Dim::Nq => format!("`d_d{name}` (tangent space, `NV` columns)"),
            _ => format!("`d_d{name}`"),
        })
        .collect();
    vec![
        format!(
            "The Jacobian of [`{}`] by automatic differentiation of its traced graph:",
            function.name()
        ),
        format!(
            "`({})`, one block per argument, a row per output scalar (flattened row-major).",
            blocks.join(", ")
        ),
        "A configuration's block is in the tangent space: the derivative at `δ = 0` of the".into(),
        "function at `integrate(q, δ)`, as Pinocchio's derivatives.".into(),
    ]
}

/// The table's argument names as owned strings.
fn named(args: Vec<(&'static str, Dim)>) -> Vec<(String, Dim)> {
    args.into_iter().map(|(n, d)| (n.to_string(), d)).collect()
}

/// The link frames of the per-frame functions of a module generated with
/// `options` for `model` (all link frames unless [`Options::frames`] names
/// some): `(frame index, name)` in model order, the arms of `match frame`.
pub fn module_frames(model: &Model, options: &Options) -> Vec<(usize, String)> {
    (crate::api::selected_frames(model, options).into_iter())
        .map(|(id, f)| (id, f.name.clone()))
        .collect()
}
