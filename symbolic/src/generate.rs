//! The one entry point: URDF text and options in, formatted Rust out. The
//! macro and the CLI both call [`generate_module`] (through [`generate`],
//! [`generate_tokens`] or [`macro_module`]), so a committed file and the
//! macro's module are the same code.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;
use rbdgen_runtime::{ContactKind, Data, Model, ModelError};
use sha2::{Digest, Sha256};
use thiserror::Error;

use crate::cost_reference::rnea_mul_reference;
use crate::emit::{emit_block, Arith, Inputs, ScalarType, Shape, Split};
use crate::functions::{Dim, Function, Output};
use crate::graph::{Node, OpCounts};
use crate::lanes::{lane_wrappers, lanes_module};
use crate::simplify::{simplify, Limits};
use crate::trace::{trace, Expr, Traced};

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
    /// Also emit every function over `L` states at once (2, 4 or 8): a module
    /// `lanes` with the lane type `V`, each function's kernel, its
    /// array-of-structures wrapper `NAME_aos` and its `NAME_batch`. `None` by
    /// default.
    pub lanes: Option<usize>,
}

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
        }
    }
}

/// The model of `urdf` with the options' armature, contacts and run-time
/// parameters set: the model every function of the module is traced on.
///
/// # Errors
/// [`GenerateError::Model`] for a URDF that does not make a model, or an
/// unknown joint or link name, a negative armature, a contact or a parameter
/// on a link welded to the universe, or an unknown frame in `options.frames`.
pub fn build_model(urdf: &str, options: &Options) -> Result<Model, GenerateError> {
    let mut model = if options.mimic {
        Model::from_description_str_mimic(urdf, options.floating_base)?
    } else {
        Model::from_description_str(urdf, options.floating_base)?
    };
    for (joint, value) in &options.armature {
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
    if model.contacts.is_empty() {
        if let Some(f) = options.functions.iter().find(|f| f.needs_contacts()) {
            return Err(GenerateError::NoContacts(f.name()));
        }
    }
    Ok(options.functions.iter().copied().collect())
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
        function: &'static str,
        /// What went wrong.
        reason: String,
    },
    /// A lane count other than 2, 4 or 8.
    #[error("lanes = {0}: expected 2, 4 or 8")]
    Lanes(usize),
    /// A contact function was asked for without a contact set.
    #[error("`{0}` needs a contact set: give `contacts = [LINK: point | 6d, ...]` (CLI `--contacts LINK:point,...`)")]
    NoContacts(&'static str),
    /// The token stream did not parse as a Rust file (an internal error).
    #[error("generated code does not parse: {0}")]
    Syntax(String),
}

/// Where [`generate_module`] is, for a progress display.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// The function is about to be traced and emitted.
    Start(Function),
    /// The function is done; its operation count.
    Done(Function, OpCounts),
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

/// What `robot_dynamics!` expands to: `vis mod name { items }` with the items
/// of [`generate_tokens`], a `use` of the `libm` that `rbdgen` re-exports, and an
/// `include_bytes!` of `urdf_path` (an absolute path) so that editing the URDF
/// triggers a rebuild.
///
/// # Errors
/// As [`generate`].
pub fn macro_module(
    vis: &TokenStream,
    name: &Ident,
    urdf: &str,
    options: &Options,
    urdf_path: &str,
) -> Result<TokenStream, GenerateError> {
    let items = generate_tokens(urdf, options)?;
    Ok(quote! {
        #vis mod #name {
            #items
            use ::rbdgen::__private::libm;
            // Rebuild when the URDF changes.
            const _: &[u8] = include_bytes!(#urdf_path);
        }
    })
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
    let model = build_model(urdf, options)?;
    if let Some(l) = options.lanes.filter(|l| ![2, 4, 8].contains(l)) {
        return Err(GenerateError::Lanes(l));
    }
    let ty = options.scalar.ty();
    let (nq, nv) = (
        Literal::usize_unsuffixed(model.nq),
        Literal::usize_unsuffixed(model.nv),
    );
    let mut items = Vec::new();
    let mut lane_items = Vec::new();
    let mut op_counts = BTreeMap::new();
    let mut op_counts_traced = BTreeMap::new();
    for function in functions_for(&model, options)? {
        progress(Progress::Start(function));
        let (item, traced, counts) = emit_function(&model, function, options)?;
        progress(Progress::Done(function, counts));
        items.push(item.scalar);
        lane_items.extend(item.lanes);
        op_counts.insert(function, counts);
        op_counts_traced.insert(function, traced);
    }
    let header = header_doc(&model, urdf, options, &op_counts, &op_counts_traced);
    let joint_names: Vec<&str> = model.joints[1..].iter().map(|j| j.name.as_str()).collect();
    let njoints = Literal::usize_unsuffixed(joint_names.len());
    let njoints_universe = Literal::usize_unsuffixed(model.njoints());
    let neutral = model
        .neutral()
        .into_iter()
        .map(|x| options.scalar.literal(x));
    let gravity = model.gravity.0.map(|g| options.scalar.literal(g));
    let frames = frame_enum(&model, options);
    let setup = setup_constants(&model, options.scalar);
    let actuated: Vec<Literal> = rbdgen_runtime::actuated_dofs(&model)
        .into_iter()
        .map(Literal::usize_unsuffixed)
        .collect();
    let nu = Literal::usize_unsuffixed(actuated.len());
    let mul_add = mul_add_helper(options.scalar, options.std);
    let limits = limit_constants(&model, options.scalar);
    let lanes = options
        .lanes
        .map(|l| lanes_module(l, options.scalar, options.std, &lane_items));
    let tokens = quote! {
        #(#![doc = #header])*
        #![allow(clippy::all, clippy::pedantic, clippy::nursery, non_snake_case)]

        /// Length of the configuration `q`.
        pub const NQ: usize = #nq;
        /// Length of the velocity `v` (the tangent space), and of `a` and `tau`.
        pub const NV: usize = #nv;
        /// The neutral configuration (Pinocchio's `neutral`): zero angles and offsets,
        /// `[1, 0]` for continuous joints, the identity `[0, 0, 0, 0, 0, 0, 1]` for a free-flyer.
        pub const NEUTRAL: [#ty; NQ] = [#(#neutral),*];
        /// Joint names in model order (the universe excluded); joint `i` here is Pinocchio's joint id `i + 1`.
        pub const JOINT_NAMES: [&str; #njoints] = [#(#joint_names),*];
        /// Gravity in the world frame (m/s²).
        pub const GRAVITY: [#ty; 3] = [#(#gravity),*];
        /// Number of joints, the universe included (Pinocchio's `njoints`): the length of
        /// `fext`, indexed by joint id (`JOINT_NAMES[i - 1]` for `i > 0`).
        pub const NJOINTS: usize = #njoints_universe;
        /// Number of actuated dofs: every dof but a free-flyer's (the length of `u`).
        pub const NU: usize = #nu;
        /// The actuated dofs, indices into `v`: the actuation matrix `S` (`NV x NU`) has a
        /// one at `(ACTUATED_DOFS[k], k)`, so `tau = S u`.
        pub const ACTUATED_DOFS: [usize; NU] = [#(#actuated),*];
        #limits

        #setup
        #frames
        #(#items)*
        #mul_add
        #lanes
    };
    Ok(Module {
        tokens,
        op_counts,
        op_counts_traced,
    })
}

/// The model's own numbers: joint limits from the URDF (Pinocchio's
/// `lowerPositionLimit`, `upperPositionLimit`, `velocityLimit`, `effortLimit`,
/// infinite where the file has none) and the bodies' masses.
fn limit_constants(model: &Model, scalar: ScalarType) -> TokenStream {
    let ty = scalar.ty();
    let list = |x: &[f64]| -> Vec<TokenStream> {
        x.iter()
            .map(|&x| {
                if x.is_finite() {
                    scalar.literal(x)
                } else if x > 0.0 {
                    quote!(#ty::INFINITY)
                } else {
                    quote!(#ty::NEG_INFINITY)
                }
            })
            .collect()
    };
    let (lower, upper) = (
        list(&model.lower_position_limit),
        list(&model.upper_position_limit),
    );
    let (velocity, effort) = (list(&model.velocity_limit), list(&model.effort_limit));
    let masses: Vec<f64> = model.joints.iter().map(|j| j.inertia.mass).collect();
    let total = scalar.literal(masses.iter().sum());
    let masses = list(&masses);
    quote! {
        /// Lower limit of each entry of `q` (rad, m) from the URDF `<limit lower>`; `-∞` for
        /// continuous joints, a free-flyer and joints without limits (Pinocchio's `lowerPositionLimit`).
        pub const Q_LOWER: [#ty; NQ] = [#(#lower),*];
        /// Upper limit of each entry of `q` (rad, m), as `Q_LOWER` (Pinocchio's `upperPositionLimit`).
        pub const Q_UPPER: [#ty; NQ] = [#(#upper),*];
        /// Speed limit of each dof (rad/s, m/s) from `<limit velocity>`; `∞` where absent or zero
        /// and for a free-flyer (Pinocchio's `velocityLimit`).
        pub const V_MAX: [#ty; NV] = [#(#velocity),*];
        /// Torque or force limit of each dof (N·m, N) from `<limit effort>`; `∞` where absent or
        /// zero and for a free-flyer (Pinocchio's `effortLimit`).
        pub const TAU_MAX: [#ty; NV] = [#(#effort),*];
        /// Mass of the body of each joint id (kg), the links welded to it included; entry 0, the
        /// universe, holds nothing that moves.
        pub const BODY_MASSES: [#ty; NJOINTS] = [#(#masses),*];
        /// Total mass of the moving bodies (kg).
        pub const TOTAL_MASS: #ty = #total;
    }
}

/// The constants of the options that change the model: `ARMATURE` when
/// there is one, the contact set (`NC`, `CONTACTS`), the run-time parameters'
/// links and their URDF values (`NPARAMETERS`, `PARAMETER_LINKS`,
/// `LINK_PARAMETERS`). Nothing for a plain model.
fn setup_constants(model: &Model, scalar: ScalarType) -> TokenStream {
    let ty = scalar.ty();
    let mut out = TokenStream::new();
    if model.armature.iter().any(|&a| a != 0.0) {
        let arm = model.armature.iter().map(|&a| scalar.literal(a));
        out.extend(quote! {
            /// Rotor inertia per dof (kg·m², kg), on the diagonal of `M` in every dynamics
            /// function (Pinocchio's `model.armature`).
            pub const ARMATURE: [#ty; NV] = [#(#arm),*];
        });
    }
    if !model.contacts.is_empty() {
        let nc = Literal::usize_unsuffixed(model.nc());
        let n = Literal::usize_unsuffixed(model.contacts.len());
        let list = model.contacts.iter().map(|c| {
            let (name, rows) = (&model.frames[c.frame].name, c.kind.rows());
            quote!((#name, #rows))
        });
        out.extend(quote! {
            /// Rows of the contact set: 3 per point contact, 6 per 6-D contact.
            pub const NC: usize = #nc;
            /// The contact set, in row order: the link frame and its rows (3: a point, the
            /// linear velocity of its origin in world axes; 6: the whole frame, in its own axes).
            pub const CONTACTS: [(&str, usize); #n] = [#(#list),*];
        });
    }
    if !model.parameters.is_empty() {
        let n = Literal::usize_unsuffixed(model.parameters.len());
        let names = model
            .parameters
            .iter()
            .map(|&f| model.frames[f].name.as_str());
        let values = model.parameters.iter().map(|&f| {
            let p = model.frames[f]
                .inertia
                .to_parameters()
                .map(|x| scalar.literal(x));
            quote!([#(#p),*])
        });
        out.extend(quote! {
            /// Number of links whose inertial parameters are the argument `pi`.
            pub const NPARAMETERS: usize = #n;
            /// The links whose inertial parameters are the argument `pi`, in order.
            pub const PARAMETER_LINKS: [&str; NPARAMETERS] = [#(#names),*];
            /// The URDF's parameters of those links, `[m, m c_x, m c_y, m c_z, I_xx, I_xy, I_yy,
            /// I_xz, I_yz, I_zz]` in the link frame, `I` about its origin (kg, kg·m, kg·m²): pass
            /// them as `pi` for the robot as modelled, plus a payload's for a grasped object.
            pub const LINK_PARAMETERS: [[#ty; 10]; NPARAMETERS] = [#(#values),*];
        });
    }
    out
}

/// The module's `mul_add(a, b, c) = a * b + c`, which emission fuses products
/// into: with `std`, `f64::mul_add` where the target has FMA instructions
/// (`-C target-cpu=native`, `x86-64-v3`): one instruction, one rounding. Core
/// has no stable FMA, and its vector intrinsics make rustc many times slower
/// on large functions, so without `std` it is a product and a sum.
fn mul_add_helper(scalar: ScalarType, std: bool) -> TokenStream {
    let ty = scalar.ty();
    let body = if std {
        quote! {
            #[cfg(target_feature = "fma")]
            {
                a.mul_add(b, c)
            }
            #[cfg(not(target_feature = "fma"))]
            {
                a * b + c
            }
        }
    } else {
        quote!(a * b + c)
    };
    quote! {
        /// `a * b + c`: the products that emission fused into sums.
        #[allow(dead_code)]
        #[inline(always)]
        fn mul_add(a: #ty, b: #ty, c: #ty) -> #ty {
            #body
        }
    }
}

/// The URDF's name for the header: as given when relative, the file name when
/// absolute (an absolute path would differ from machine to machine).
fn header_name(source_name: &str) -> String {
    let path = Path::new(source_name);
    if path.has_root() {
        if let Some(name) = path.file_name() {
            return name.to_string_lossy().into_owned();
        }
    }
    source_name.replace('\\', "/")
}

/// The lowercase hexadecimal SHA-256 of `text`.
pub fn sha256_hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The `rbdgen generate` arguments that reproduce `options` (after the URDF).
pub fn command_line_options(options: &Options) -> String {
    let mut args = Vec::new();
    if options.floating_base {
        args.push("--floating-base".to_string());
    }
    if options.mimic {
        args.push("--mimic".to_string());
    }
    let all: BTreeSet<Function> = Function::ALL.into_iter().collect();
    if options.functions != all {
        let names: Vec<&str> = options.functions.iter().map(|f| f.name()).collect();
        args.push(format!("--functions {}", names.join(",")));
    }
    if options.scalar != ScalarType::F64 {
        args.push(format!("--scalar {}", options.scalar.name()));
    }
    if options.std {
        args.push("--std".to_string());
    }
    if options.simplify {
        args.push("--simplify".to_string());
    }
    if !options.armature.is_empty() {
        let list: Vec<String> = options
            .armature
            .iter()
            .map(|(j, a)| format!("{j}={a:?}"))
            .collect();
        args.push(format!("--armature {}", list.join(",")));
    }
    if !options.contacts.is_empty() {
        let list: Vec<String> = options
            .contacts
            .iter()
            .map(|(f, k)| format!("{f}:{}", k.name()))
            .collect();
        args.push(format!("--contacts {}", list.join(",")));
    }
    if !options.parameters.is_empty() {
        args.push(format!("--parameters {}", options.parameters.join(",")));
    }
    if let Some(frames) = &options.frames {
        args.push(format!("--frames {}", frames.join(",")));
    }
    if let Some(l) = options.lanes {
        args.push(format!("--lanes {l}"));
    }
    args.join(" ")
}

fn header_doc(
    model: &Model,
    urdf: &str,
    options: &Options,
    op_counts: &BTreeMap<Function, OpCounts>,
    op_counts_traced: &BTreeMap<Function, OpCounts>,
) -> Vec<String> {
    let base = match (options.floating_base, options.mimic) {
        (true, false) => "free-flyer root",
        (false, false) => "fixed base",
        (true, true) => "free-flyer root, mimic joints",
        (false, true) => "fixed base, mimic joints",
    };
    let name = header_name(&options.source_name);
    let functions: Vec<&str> = op_counts.keys().map(|f| f.name()).collect();
    let mut regenerate = format!("rbdgen generate {name}");
    for arg in command_line_options(options)
        .split(' ')
        .filter(|a| !a.is_empty())
    {
        regenerate.push(' ');
        regenerate.push_str(arg);
    }
    let mut lines = vec![
        format!(
            " Rigid-body dynamics of `{}`, generated by rbdgen {}.",
            model.name,
            env!("CARGO_PKG_VERSION")
        ),
        String::new(),
        format!(
            " Source: `{name}`, {base}; nq = {}, nv = {}.",
            model.nq, model.nv
        ),
        format!(" SHA-256 of the URDF: `{}`.", sha256_hex(urdf)),
        format!(
            " Options: floating_base = {}, scalar = {}, std = {}, functions = [{}].",
            options.floating_base,
            options.scalar.name(),
            options.std,
            functions.join(", ")
        ),
        format!(
            " Regenerate with `{regenerate} -o FILE`; add `--check` to test that FILE is current."
        ),
        String::new(),
        " Conventions are Pinocchio's: joint order, `q`/`v` layout, free-flyer".into(),
        " `[x y z qx qy qz qw]` with `v` in the base frame, continuous joints as".into(),
        " `[cos, sin]`, spatial vectors `[linear; angular]`, gravity (0, 0, -9.81).".into(),
        if options.std {
            " SI units. No allocation; `f64::mul_add` needs `std`, the rest of the math goes".into()
        } else {
            " SI units. No `std`, no allocation: the math goes through the `libm` crate,".into()
        },
        if options.std {
            " through the `libm` crate. Do not edit: regenerate instead.".into()
        } else {
            " which the including crate depends on. Do not edit: regenerate instead.".into()
        },
        String::new(),
        " Inputs are used as given, as in Pinocchio: a free-flyer quaternion that is".into(),
        " not unit (or a continuous joint's `[cos, sin]` off the unit circle) enters".into(),
        " the rotation formula unnormalised, giving a scaled, non-orthogonal".into(),
        " \"rotation\"; normalise it first. A NaN input gives NaN in every output".into(),
        " that depends on it (an entry that does not, such as a constant entry of".into(),
        " `crba`, stays finite); nothing panics.".into(),
        String::new(),
        " Operation counts:".into(),
    ];
    if options.simplify {
        lines.pop();
        lines.push(" Operation counts, traced → simplified with egg:".into());
    }
    for (f, counts) in op_counts {
        lines.push(if options.simplify {
            let traced = op_counts_traced.get(f).map_or(0, OpCounts::total);
            format!(" - `{}`: {traced} → {counts}", f.name())
        } else {
            format!(" - `{}`: {counts}", f.name())
        });
        if *f == Function::Rnea {
            lines.push(format!("   {}", rnea_mul_reference(model.nv, counts)));
        }
    }
    lines
}

/// A non-finite constant in a trace is an error; when the model has a moving
/// joint with a massless subtree (a singular mass matrix, the usual cause in
/// `aba`), the error names that joint. So is a constant that the scalar type
/// cannot represent.
fn check(
    model: &Model,
    traced: &Traced,
    name: &'static str,
    scalar: ScalarType,
) -> Result<(), GenerateError> {
    let error = |reason: String| GenerateError::NonFinite {
        function: name,
        reason,
    };
    if let Some(reason) = traced.graph.non_finite() {
        return Err(error(match model.check_massless_subtrees() {
            Err(e) => e.to_string(),
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

pub(crate) fn dim_tokens(dim: Dim) -> TokenStream {
    match dim {
        Dim::Nq => quote!(NQ),
        Dim::Nv => quote!(NV),
        Dim::Fixed(n) => {
            let n = Literal::usize_unsuffixed(n);
            quote!(#n)
        }
        Dim::Wrenches => quote!(6 * NJOINTS),
        Dim::Nu => quote!(NU),
        Dim::TwoNv => quote!(2 * NV),
        Dim::Placement => quote!(16),
        Dim::Scalar => quote!(1),
        Dim::Contacts => quote!(NC),
        Dim::Parameters => quote!(10 * NPARAMETERS),
        Dim::Regressor => quote!(10 * (NJOINTS - 1)),
    }
}

fn output_shape(output: &Output, model: &Model) -> Shape {
    match output {
        Output::Scalar => Shape::Scalar,
        Output::Vector(n) => Shape::Vector(n.len(model)),
        Output::Matrix(r, c) => Shape::Matrix(r.len(model), c.len(model)),
        Output::Tuple(parts) => {
            Shape::Tuple(parts.iter().map(|p| output_shape(p, model)).collect())
        }
    }
}

pub(crate) fn output_type(output: &Output, ty: &TokenStream) -> TokenStream {
    match output {
        Output::Scalar => ty.clone(),
        Output::Vector(n) => {
            let n = dim_tokens(*n);
            quote!([#ty; #n])
        }
        Output::Matrix(r, c) => {
            let (r, c) = (dim_tokens(*r), dim_tokens(*c));
            quote!([[#ty; #c]; #r])
        }
        Output::Tuple(parts) => {
            let parts = parts.iter().map(|p| output_type(p, ty));
            quote!((#(#parts),*))
        }
    }
}

/// A function's emitted items: the scalar function (with its parts) and,
/// with lanes, the `L`-lane function, its array-of-structures wrapper and its
/// batch function for the `lanes` module.
struct FunctionItems {
    scalar: TokenStream,
    lanes: Option<TokenStream>,
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
    let scalar = options.scalar;
    let spec = function.spec();
    let fargs = function.args(model);
    let args: Vec<(&str, usize)> = fargs.iter().map(|(n, d)| (*n, d.len(model))).collect();
    let lens: Vec<usize> = args.iter().map(|a| a.1).collect();
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
    let mut graphs = Vec::with_capacity(frames.len());
    for frame in &frames {
        let mut traced = trace(&lens, |x| {
            let mut data = Data::<Expr>::new(model);
            function.evaluate(model, &mut data, x, frame.as_ref().map(|f| f.0))
        });
        check(model, &traced, spec.name, scalar)?;
        traced_counts += traced.graph.op_counts(&traced.outputs);
        if options.simplify {
            let s = simplify(&traced.graph, &traced.outputs, &Limits::default());
            traced = Traced {
                graph: s.graph,
                outputs: s.outputs,
            };
            check(model, &traced, spec.name, scalar)?;
        }
        counts += traced.graph.op_counts(&traced.outputs);
        graphs.push(traced);
    }
    let name = Ident::new(spec.name, Span::call_site());
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
        let params = arg_params(&fargs, &ty);
        let mut parts = Vec::new();
        let mut blocks = Vec::new();
        for (frame, traced) in frames.iter().zip(&graphs) {
            let prefix = match frame {
                Some((_, variant)) => format!("{}_{variant}_part", spec.name),
                None => format!("{}_part", spec.name),
            };
            let emitted = emit_block(
                &traced.graph,
                &traced.outputs,
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
                    params: &params,
                    names: &names,
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
        let ret = output_type(&spec.output, &ty);
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
        scalar: emit(Arith::Scalar),
        lanes: options.lanes.map(|_| {
            let kernel = emit(Arith::Lanes);
            let wrappers = lane_wrappers(spec.name, &fargs, &spec.output, spec.per_frame, scalar);
            quote!(#kernel #wrappers)
        }),
    };
    Ok((items, traced_counts, counts))
}

/// The parameter declarations of `args` over the value type `ty`.
fn arg_params(args: &[(&str, Dim)], ty: &TokenStream) -> Vec<TokenStream> {
    args.iter()
        .map(|(n, d)| {
            let n = Ident::new(n, Span::call_site());
            match d {
                Dim::Wrenches => quote!(#n: &[[#ty; 6]; NJOINTS]),
                Dim::Parameters => quote!(#n: &[[#ty; 10]; NPARAMETERS]),
                Dim::Placement => quote!(#n: &[[#ty; 4]; 4]),
                Dim::Scalar => quote!(#n: #ty),
                _ => {
                    let d = dim_tokens(*d);
                    quote!(#n: &[#ty; #d])
                }
            }
        })
        .collect()
}

/// Rust identifier for a frame: UpperCamelCase of the link name.
fn variant_name(name: &str, taken: &mut BTreeSet<String>) -> Ident {
    let mut out = String::new();
    for part in name
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|p| !p.is_empty())
    {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.push(first.to_ascii_uppercase());
            out.extend(chars);
        }
    }
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) || out == "Self" {
        out.insert_str(0, "Frame");
    }
    let mut candidate = out.clone();
    let mut k = 2;
    while !taken.insert(candidate.clone()) {
        candidate = format!("{out}{k}");
        k += 1;
    }
    Ident::new(&candidate, Span::call_site())
}

/// The link frames of the `Frame` enum and of the per-frame functions: those
/// of `options.frames` (in model order), else every link frame.
fn selected_frames<'m>(
    model: &'m Model,
    options: &Options,
) -> Vec<(usize, &'m rbdgen_runtime::Frame)> {
    model
        .body_frames()
        .filter(|(_, f)| {
            options
                .frames
                .as_ref()
                .is_none_or(|names| names.contains(&f.name))
        })
        .collect()
}

fn frame_enum(model: &Model, options: &Options) -> TokenStream {
    let mut taken = BTreeSet::new();
    let frames: Vec<(Ident, &str)> = selected_frames(model, options)
        .into_iter()
        .map(|(_, f)| (variant_name(&f.name, &mut taken), f.name.as_str()))
        .collect();
    let n = Literal::usize_unsuffixed(frames.len());
    let variants = frames.iter().map(|(id, name)| {
        let doc = format!(" Link `{name}`.");
        quote!(#[doc = #doc] #id)
    });
    let all = frames.iter().map(|(id, _)| quote!(Frame::#id));
    let names = frames.iter().map(|(id, name)| quote!(Frame::#id => #name));
    quote! {
        /// The link (BODY) frames of the model, in Pinocchio's order.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Frame { #(#variants),* }

        impl Frame {
            /// Every frame, in model order.
            pub const ALL: [Frame; #n] = [#(#all),*];

            /// The URDF link name.
            pub fn name(self) -> &'static str {
                match self { #(#names),* }
            }
        }
    }
}
