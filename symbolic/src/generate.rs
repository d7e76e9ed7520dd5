//! The one entry point: URDF text and options in, formatted Rust out. The
//! macro and the CLI both call [`generate_module`] (through [`generate`] or
//! [`generate_tokens`]), so a committed file and the macro's module are the
//! same code. The pipeline per function: trace, check, simplify when asked,
//! [`schedule()`], [`print()`]; around the functions, the header
//! ([`crate::header`]) and the module's constants (the private `api` module).

use std::collections::{BTreeMap, BTreeSet};

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use rbdgen_runtime::{ContactKind, Data, Model, ModelError};
use thiserror::Error;

use crate::api::{
    arg_params, constants, mul_add_helper, output_shape, output_type, selected_frames, variant_name,
};
use crate::emit::{print, schedule, Arith, Inputs, ScalarType, Split, PART_LEN, WHOLE_LEN};
use crate::ffi::{c_api_module, c_header, is_c_identifier};
use crate::functions::{Dim, Function, Output};
use crate::graph::{Node, OpCounts};
use crate::header::header_doc;
use crate::jacobian::{jacobian_output, trace_jacobian};
use crate::lanes::{lane_widths, lane_wrappers, lanes_module};
use crate::simplify::{simplify, Limits, Stops};
use crate::trace::{trace, Expr, Traced};
use crate::user::UserFunction;

/// What to generate.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Give the root link a free-flyer joint (Pinocchio's `JointModelFreeFlyer`).
    pub floating_base: bool,
    /// Model the URDF's `<mimic>` joints (Pinocchio's `buildModelFromUrdf(..,
    /// mimic=True)`, [`Model::from_urdf_str_mimic`]): a mimicking joint follows
    /// its primary and has no entry in `q` or `v`. Off by default (mimic tags
    /// ignored, every joint independent).
    pub mimic: bool,
    /// The functions to emit (all by default).
    pub functions: BTreeSet<Function>,
    /// The name the URDF is known by in the header, as the user gave it (a
    /// relative path; an absolute path is reduced to its file name).
    pub source_name: String,
    /// The floating-point type of the generated code (`f64` by default).
    pub scalar: ScalarType,
    /// Simplify each traced graph with egg ([`crate::simplify`]) before
    /// emitting it (off by default; `--simplify` on the command line).
    pub simplify: bool,
    /// The generated code may use `std` (`--std`; `robot_dynamics!` sets it):
    /// its fused multiply-adds are `f64::mul_add`, one FMA instruction on targets
    /// that have it (`-C target-cpu=native`). Without `std` (the default, for
    /// `no_std` crates) they are a product and a sum.
    pub std: bool,
    /// Armature (rotor inertia) per joint name, folded into every dynamics
    /// function as `model.armature` ([`Model::set_armature`]); none by default.
    pub armature: Vec<(String, f64)>,
    /// The contact set of the contact functions, link frame names in order
    /// ([`Model::set_contacts`]); empty by default, and then the contact
    /// functions are not part of the default set.
    pub contacts: Vec<(String, ContactKind)>,
    /// Links whose inertial parameters are run-time inputs (`pi`) of every
    /// function that reads inertias ([`Model::set_parameters`]); none by default.
    pub parameters: Vec<String>,
    /// The link frames of the per-frame functions and of the `Frame` enum
    /// (all link frames when `None`).
    pub frames: Option<Vec<String>>,
    /// Also emit every function over `L` states at once (2, 4 or 8 with
    /// `f64`, 4, 8 or 16 with `f32`: [`lane_widths`]): a module `lanes` with
    /// the lane type `V` (a vector of the `wide` crate, which the generated
    /// code then names), each function's kernel, its array-of-structures
    /// wrapper `NAME_aos` and its `NAME_batch`. `None` by default.
    pub lanes: Option<usize>,
    /// With `lanes`, also emit `NAME_batch_par` in the `lanes` module: the
    /// batch split across rayon's thread pool in whole lane groups (the
    /// generated code then names the `rayon` crate; `robot_dynamics!` takes
    /// it from rbdgen's `rayon` feature). Off by default; without `lanes` it
    /// is [`GenerateError::ThreadsWithoutLanes`].
    pub threads: bool,
    /// Refuse a model that is physically impossible although Pinocchio accepts
    /// it ([`Model::physical_warnings`]: a link inertia that violates the
    /// triangle inequality, a moving subtree without mass) instead of
    /// reporting it in [`Module::warnings`]; off by default.
    pub strict: bool,
    /// The most operations one function may have ([`OpCounts::total`], summed
    /// over the arms of a per-frame function); [`DEFAULT_MAX_OPS`] by default.
    /// A larger function is refused ([`GenerateError::TooLarge`]) before it is
    /// emitted.
    pub max_ops: usize,
    /// Functions whose Jacobian is also emitted, as `NAME_jacobian`, by
    /// automatic differentiation of the traced graph ([`crate::jacobian`]);
    /// none by default. Independent of `functions`: the function itself is
    /// emitted only when `functions` has it.
    pub jacobians: BTreeSet<Function>,
    /// Functions written by the user, traced and emitted after the table's,
    /// with the derivatives each asks for ([`crate::user`]); none by default.
    /// A build script gives them; the command line and the macro cannot.
    pub user_functions: Vec<UserFunction>,
    /// Also emit the C interface with this prefix (a C identifier, usually the
    /// module's name; `--c-api NAME`): a module `c_api` of `extern "C"`
    /// functions `PREFIX_FUNCTION` and `PREFIX_FUNCTION_batch` around every
    /// function ([`crate::ffi`]), and the C header that declares them in
    /// [`Module::c_header`]. `None` by default.
    pub c_api: Option<String>,
    /// Named contact sets, each emitted as a submodule `NAME` of its own (an
    /// MPC horizon crosses gait modes: four feet, a trot's diagonals,
    /// flight): the contact functions of `functions` and `jacobians` (those
    /// of [`Function::needs_contacts`]) traced on that set, with their `NC`,
    /// `CONTACTS`, and `lanes` module; the other functions once, at the top.
    /// A set may be empty (flight). None by default. Each set costs what a
    /// module with its contact functions alone costs to build.
    pub contact_sets: Vec<(String, Vec<(String, ContactKind)>)>,
}

/// The default of [`Options::max_ops`]: 200,000 operations per function.
/// rustc spends about 1 ms per straight-line operation at opt-level 3, so this
/// is a build of about three minutes for one function. The largest functions
/// of the shipped robots are below it (Unitree G1's `step_linearization` has
/// about 131,000 operations, Go2+Z1's 56,000); the `crba` of a 200-link serial
/// chain (308,000) is above it.
pub const DEFAULT_MAX_OPS: usize = 200_000;

impl Default for Options {
    fn default() -> Self {
        Self {
            floating_base: false,
            mimic: false,
            functions: Function::ALL.into_iter().collect(),
            source_name: String::new(),
            scalar: ScalarType::F64,
            simplify: false,
            std: false,
            armature: Vec::new(),
            contacts: Vec::new(),
            parameters: Vec::new(),
            frames: None,
            lanes: None,
            threads: false,
            strict: false,
            max_ops: DEFAULT_MAX_OPS,
            jacobians: BTreeSet::new(),
            user_functions: Vec::new(),
            c_api: None,
            contact_sets: Vec::new(),
        }
    }
}

/// The model of `urdf` with the options' armature, contacts and run-time
/// parameters set: the model every function of the module is traced on.
///
/// # Errors
/// [`GenerateError::Model`] for a URDF that does not make a model, or an
/// unknown joint or link name, a negative armature, a joint given two
/// armatures, a contact or a parameter on a link welded to the universe, or an
/// unknown frame in `options.frames`;
/// with [`Options::strict`], the first of [`Model::physical_warnings`].
pub fn build_model(urdf: &str, options: &Options) -> Result<Model, GenerateError> {
    let mut model = if options.mimic {
        Model::from_description_str_mimic(urdf, options.floating_base)?
    } else {
        Model::from_description_str(urdf, options.floating_base)?
    };
    for (k, (joint, value)) in options.armature.iter().enumerate() {
        if options.armature[..k].iter().any(|(j, _)| j == joint) {
            return Err(ModelError::InvalidSetting {
                item: format!("armature of joint `{joint}`"),
                reason: "named twice".into(),
            }
            .into());
        }
        model.set_armature(joint, *value)?;
    }
    let contacts: Vec<(&str, ContactKind)> = options
        .contacts
        .iter()
        .map(|(name, kind)| (name.as_str(), *kind))
        .collect();
    model.set_contacts(&contacts)?;
    let links: Vec<&str> = options.parameters.iter().map(String::as_str).collect();
    model.set_parameters(&links)?;
    for name in options.frames.iter().flatten() {
        model.link_frame(name)?;
    }
    if options.strict {
        if let Some(warning) = model.physical_warnings().into_iter().next() {
            return Err(warning.into());
        }
    }
    Ok(model)
}

/// The functions of `options` for `model`: the default set when all are
/// asked for (the contact functions only with a contact set).
///
/// # Errors
/// [`GenerateError::NoContacts`] for a contact function named without a
/// contact set.
fn functions_for(model: &Model, options: &Options) -> Result<Vec<Function>, GenerateError> {
    if options.functions.len() == Function::ALL.len() {
        return Ok(Function::default_set(model));
    }
    if model.contacts.is_empty() && options.contact_sets.is_empty() {
        if let Some(f) = options.functions.iter().find(|f| f.needs_contacts()) {
            return Err(GenerateError::NoContacts(f.name()));
        }
    }
    Ok(options.functions.iter().copied().collect())
}

/// The functions whose Jacobian `options` asks for.
///
/// # Errors
/// [`GenerateError::NoContacts`] for a contact function without a contact set.
fn jacobians_for(model: &Model, options: &Options) -> Result<Vec<Function>, GenerateError> {
    if model.contacts.is_empty() && options.contact_sets.is_empty() {
        if let Some(f) = options.jacobians.iter().find(|f| f.needs_contacts()) {
            return Err(GenerateError::NoContacts(f.name()));
        }
    }
    Ok(options.jacobians.iter().copied().collect())
}

/// [`lane_widths`] in words: `2, 4 or 8`.
fn expected_lanes(scalar: ScalarType) -> String {
    let w: Vec<String> = lane_widths(scalar)
        .iter()
        .map(ToString::to_string)
        .collect();
    format!("{} or {}", w[..w.len() - 1].join(", "), w[w.len() - 1])
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
    /// A lane count that is not one of [`lane_widths`] for the scalar type.
    #[error("lanes = {lanes}: expected {} with scalar = {}", expected_lanes(*.scalar), .scalar.name())]
    Lanes {
        /// The lane count asked for.
        lanes: usize,
        /// The scalar type.
        scalar: ScalarType,
    },
    /// `threads` was asked for without `lanes`.
    #[error("threads: `NAME_batch_par` splits the lanes' batch across threads; give `lanes = 2 | 4 | 8` too")]
    ThreadsWithoutLanes,
    /// A contact function was asked for without a contact set.
    #[error("`{0}` needs a contact set: give `contacts = [LINK: point | 6d, ...]` (CLI `--contacts LINK:point,...`)")]
    NoContacts(&'static str),
    /// A function has more operations than [`Options::max_ops`].
    #[error(
        "`{function}` has {ops} operations, more than the limit of {limit} per function \
         (rustc takes about 1 ms per operation at opt-level 3): ask for fewer functions, or \
         raise the limit with `max_ops = N` (CLI `--max-ops N`)"
    )]
    TooLarge {
        /// The function refused.
        function: String,
        /// Its operation count (at least; the count stops at the first frame
        /// of a per-frame function that passes the limit).
        ops: usize,
        /// [`Options::max_ops`].
        limit: usize,
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
    /// A user function's declaration is wrong ([`UserFunction::check`]), or
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
    /// The prefix of [`Options::c_api`] is not a C identifier.
    #[error(
        "c_api: `{0}` is not a C identifier (letters, digits and `_`, not starting with a digit)"
    )]
    CApiName(String),
    /// A contact set's name is not a lowercase Rust identifier free for a
    /// submodule, or is given twice.
    #[error(
        "contact set `{0}`: a set is a submodule; name it with a lowercase identifier (letters, digits, `_`), \
         once, other than `lanes`, `c_api` and Rust keywords"
    )]
    ContactSetName(String),
    /// The Python module was asked for with `scalar = f32` (its numpy arrays
    /// are `float64`).
    #[error("python: the module's arrays are float64; leave out `scalar = f32`")]
    PythonScalar,
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
    if options.contact_sets.is_empty() {
        return generate_one(urdf, options, options, None, &mut progress);
    }
    // The top: every function but the contact ones (unless `contacts` gives
    // them a set there too); then one submodule per set with those.
    let mut sets = Vec::new();
    for (k, (name, set)) in options.contact_sets.iter().enumerate() {
        let taken = options.contact_sets[..k].iter().any(|(n, _)| n == name);
        if taken || !is_set_name(name) {
            return Err(GenerateError::ContactSetName(name.clone()));
        }
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

/// `Ok` when `name` can name a contact set's submodule
/// ([`Options::contact_sets`]).
///
/// # Errors
/// [`GenerateError::ContactSetName`] naming it.
pub fn check_contact_set_name(name: &str) -> Result<(), GenerateError> {
    if is_set_name(name) {
        Ok(())
    } else {
        Err(GenerateError::ContactSetName(name.to_string()))
    }
}

/// Whether `name` can name a contact set's submodule.
fn is_set_name(name: &str) -> bool {
    const TAKEN: [&str; 8] = [
        "lanes", "c_api", "self", "super", "crate", "mod", "fn", "type",
    ];
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !TAKEN.contains(&name)
        && syn::parse_str::<Ident>(name).is_ok()
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
    if let Some(l) = options
        .lanes
        .filter(|l| !lane_widths(options.scalar).contains(l))
    {
        return Err(GenerateError::Lanes {
            lanes: l,
            scalar: options.scalar,
        });
    }
    if options.threads && options.lanes.is_none() {
        return Err(GenerateError::ThreadsWithoutLanes);
    }
    if let Some(prefix) = options.c_api.as_ref().filter(|p| !is_c_identifier(p)) {
        return Err(GenerateError::CApiName(prefix.clone()));
    }
    let functions = if set.is_some() {
        options.functions.iter().copied().collect()
    } else {
        functions_for(&model, options)?
    };
    let jacobians = if set.is_some() {
        options.jacobians.iter().copied().collect()
    } else {
        jacobians_for(&model, options)?
    };
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
        for part in f.items() {
            let signature = Signature {
                name: part.name(&f.name),
                args: f.inputs.clone(),
                per_frame: false,
                output: part.output(f, &model),
                doc: part.doc(f),
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
    let mul_add = mul_add_helper(options.scalar, options.std);
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
fn check(
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
struct FunctionItems {
    scalar: TokenStream,
    lanes: Option<TokenStream>,
    /// Why egg stopped in the windows of the function's simplification
    /// (none without [`Options::simplify`]).
    stops: Stops,
    /// The function's signature, which the C interface wraps.
    signature: Signature,
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
    };
    let lens: Vec<usize> = signature.args.iter().map(|(_, d)| d.len(model)).collect();
    emit_traced(model, &signature, options, |frame| {
        let mut refused = None;
        let traced = trace(&lens, |x| {
            let mut data = Data::<Expr>::new(model);
            function
                .evaluate(model, &mut data, x, frame)
                .unwrap_or_else(|e| {
                    refused = Some(e);
                    Vec::new()
                })
        });
        match refused {
            Some(e) => Err(e),
            None => Ok(traced),
        }
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
    for frame in &frames {
        let mut traced =
            trace_at(frame.as_ref().map(|f| f.0)).map_err(|source| GenerateError::Input {
                function: spec.name.clone(),
                source,
            })?;
        check(model, &traced, &spec.name, scalar)?;
        traced_counts += traced.graph.op_counts(&traced.outputs);
        if options.simplify {
            let s = simplify(&traced.graph, &traced.outputs, &Limits::default());
            stops += s.stops;
            traced = Traced {
                graph: s.graph,
                outputs: s.outputs,
            };
            check(model, &traced, &spec.name, scalar)?;
        }
        counts += traced.graph.op_counts(&traced.outputs);
        if counts.total() > options.max_ops {
            return Err(GenerateError::TooLarge {
                function: spec.name.clone(),
                ops: counts.total(),
                limit: options.max_ops,
            });
        }
        schedules.push(schedule(
            &traced.graph,
            &traced.outputs,
            WHOLE_LEN,
            PART_LEN,
        ));
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
        let mut parts = Vec::new();
        let mut blocks = Vec::new();
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
            let emitted = print(
                schedule,
                &shape,
                &Inputs {
                    args: &args,
                    row_len: &row_len,
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
            );
            parts.extend(emitted.parts);
            blocks.push(emitted.block);
        }
        let body = if spec.per_frame {
            let arms = frames.iter().zip(&blocks).map(|(f, block)| {
                let variant = &f.as_ref().expect("a frame per arm").1;
                quote!(Frame::#variant => #block)
            });
            quote!({ match frame { #(#arms),* } })
        } else {
            blocks.pop().expect("one block")
        };
        let frame_param = spec.per_frame.then(|| quote!(frame: Frame));
        let params = params.iter().chain(frame_param.as_ref());
        let doc = match arith {
            Arith::Scalar => {
                let mut doc: Vec<String> = spec
                    .doc
                    .iter()
                    .map(|l| {
                        if l.is_empty() {
                            String::new()
                        } else {
                            format!(" {l}")
                        }
                    })
                    .collect();
                doc.push(String::new());
                doc.push(format!(" Cost: {counts}."));
                if options.simplify {
                    doc.push(format!(
                        " Before simplification: {} ops.",
                        traced_counts.total()
                    ));
                }
                doc
            }
            Arith::Lanes => vec![format!(
                " [`super::{}`] on `L` states at once: every argument and result value is a `V`, one \
                 state per lane (structure of arrays); the same operations, lane by lane."
            , spec.name)],
        };
        quote! {
            #(#[doc = #doc])*
            #[allow(unused_variables)]
            pub fn #name(#(#params),*) -> #ret #body
            #(#parts)*
        }
    };
    let items = FunctionItems {
        stops,
        signature: spec.clone(),
        scalar: emit(Arith::Scalar),
        lanes: options.lanes.map(|_| {
            let kernel = emit(Arith::Lanes);
            let wrappers = lane_wrappers(
                &spec.name,
                fargs,
                &spec.output,
                spec.per_frame,
                scalar,
                options.threads,
            );
            quote!(#kernel #wrappers)
        }),
    };
    Ok((items, traced_counts, counts))
}

/// `aba_derivatives` → `AbaDerivatives`.
fn upper_camel(snake: &str) -> String {
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
