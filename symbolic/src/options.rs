//! The generator's options in one place: [`Options`] and its defaults, the
//! table [`OPTIONS`] that spells each option as a `robot_dynamics!` key, a
//! command-line flag and a build-script [`Config`] method, and every check of
//! the options: [`Options::check`] without the model, [`apply_to_model`] with
//! it. A wrong option is an [`OptionError`] naming the option and the list
//! entry; each front end words it in its own syntax ([`OptionError::render`]).
//!
//! [`Config`]: ../../rbdgen/build/struct.Config.html

use std::collections::BTreeSet;
use std::fmt;

use rbdgen_runtime::{ContactKind, Model, ModelError};

use crate::emit::ScalarType;
use crate::functions::Function;
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
    /// is an [`OptionError`] on `threads`.
    pub threads: bool,
    /// Refuse a model that is physically impossible although Pinocchio accepts
    /// it ([`Model::physical_warnings`]: a link inertia that violates the
    /// triangle inequality, a moving subtree without mass) instead of
    /// reporting it in [`crate::Module::warnings`]; off by default.
    pub strict: bool,
    /// The most operations one function may have ([`OpCounts::total`](crate::graph::OpCounts::total), summed
    /// over the arms of a per-frame function); [`DEFAULT_MAX_OPS`] by default.
    /// A larger function is refused ([`crate::GenerateError::TooLarge`]) before it is
    /// emitted.
    pub max_ops: usize,
    /// A function with a column form ([`Function::columns`]: `minverse`,
    /// `aba_derivatives`, `aba_derivatives_fext`, `rnea_derivatives`,
    /// `rnea_derivatives_fext`) that runs more operations than this in that
    /// form ([`OpCounts::total`](crate::graph::OpCounts::total): its stage
    /// and every column), times the form's
    /// [`Columns::limit`](crate::functions::Columns::limit) (1 for the solves
    /// by `-M⁻¹`; for the columns of `∂τ`, 3 in `rnea_derivatives` and 4 in
    /// `aba_derivatives`), is emitted in it: the code of
    /// one column written once per chain of dofs (a leg, an arm) and run in
    /// loops over the columns, so that the function's machine code fits the
    /// caches; below it, straight-line. [`DEFAULT_UNROLL_LIMIT`] by default;
    /// `0` loops every function that can loop.
    pub unroll_limit: usize,
    /// Write every limb's operations on their own, one value at a time. Off
    /// by default: a function in one block (at most
    /// [`WHOLE_LEN`](crate::emit::WHOLE_LEN) statements) on a robot with
    /// limbs of one shape (the legs of a quadruped, the arms of a humanoid)
    /// computes them side by side, one limb per lane of `wide`'s `f64x4`
    /// ([`crate::limbs`]), when that writes at least a tenth fewer
    /// statements. For targets without vector registers, where `wide`
    /// emulates its lanes one by one.
    pub one_limb_at_a_time: bool,
    /// Functions whose Jacobian is also emitted, as `NAME_jacobian`, by
    /// automatic differentiation of the traced graph ([`crate::jacobian`]);
    /// none by default. Independent of `functions`: the function itself is
    /// emitted only when `functions` has it.
    pub jacobians: BTreeSet<Function>,
    /// Functions written by the user, traced and emitted after the table's,
    /// with the derivatives each asks for ([`UserFunction`](crate::UserFunction)); none by default.
    /// A build script gives them; the command line and the macro cannot.
    pub user_functions: Vec<UserFunction>,
    /// Also emit the C interface with this prefix (a C identifier, usually the
    /// module's name; `--c-api NAME`): a module `c_api` of `extern "C"`
    /// functions `PREFIX_FUNCTION` and `PREFIX_FUNCTION_batch` around every
    /// function ([`c_crate`](crate::c_crate) builds a crate of it), and the C header that declares them in
    /// [`crate::Module::c_header`]. `None` by default.
    pub c_api: Option<String>,
    /// The CasADi module's name (a Python identifier; `--casadi NAME`): the
    /// command line and [`crate::casadi::casadi_module`] write the functions as a
    /// Python module that builds them as CasADi expressions
    /// ([`casadi_module`](crate::casadi_module)) instead of Rust; the Rust module does not depend
    /// on it. `None` by default.
    pub casadi: Option<String>,
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

/// The default of [`Options::unroll_limit`]: 40,000 operations, about 320 KiB
/// of machine code (eight bytes per operation). Measured on a 2 vCPU AMD EPYC
/// (Zen 1: 64 KiB of L1 instruction cache and 512 KiB of L2 per core), Unitree
/// G1's `minverse` (30,000 operations looped) ran 27 % faster straight-line
/// and its `aba_derivatives` 5 to 11 % faster with the solves looped than with
/// the columns of `∂τ` too; Go2+Z1's `aba_derivatives` (45,000 looped) ran 6 %
/// faster straight-line, but stays looped: straight-line its source is half
/// as long again (1.30 MB against 0.83 MB). Go2's `aba_derivatives` (26,000
/// looped) is straight-line under this limit: 1 to 2 % slower so alone in a
/// binary, 5 % faster in `scripts/bench` (6,628 ns against 6,958 looped in
/// the run before). 20,000 before, from runs on an Intel Xeon, where G1's
/// `minverse` ran as fast in both forms.
pub const DEFAULT_UNROLL_LIMIT: usize = 40_000;

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
            unroll_limit: DEFAULT_UNROLL_LIMIT,
            one_limb_at_a_time: false,
            jacobians: BTreeSet::new(),
            user_functions: Vec::new(),
            c_api: None,
            casadi: None,
            contact_sets: Vec::new(),
        }
    }
}

/// One option of [`Options`], as the table [`OPTIONS`] names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum OptionKey {
    /// [`Options::floating_base`].
    FloatingBase,
    /// [`Options::mimic`].
    Mimic,
    /// [`Options::functions`].
    Functions,
    /// [`Options::jacobians`].
    Jacobians,
    /// [`Options::scalar`].
    Scalar,
    /// [`Options::simplify`].
    Simplify,
    /// [`Options::std`].
    Std,
    /// [`Options::armature`].
    Armature,
    /// [`Options::contacts`].
    Contacts,
    /// [`Options::contact_sets`].
    ContactSets,
    /// [`Options::parameters`].
    Parameters,
    /// [`Options::frames`].
    Frames,
    /// [`Options::lanes`].
    Lanes,
    /// [`Options::threads`].
    Threads,
    /// [`Options::strict`].
    Strict,
    /// [`Options::max_ops`].
    MaxOps,
    /// [`Options::unroll_limit`].
    UnrollLimit,
    /// [`Options::one_limb_at_a_time`].
    OneLimbAtATime,
    /// [`Options::c_api`].
    CApi,
    /// [`Options::casadi`].
    Casadi,
    /// [`Options::user_functions`].
    UserFunctions,
}

/// How each front end spells one option, what it means and its default.
#[derive(Clone, Copy, Debug)]
pub struct OptionSpec {
    /// The option.
    pub key: OptionKey,
    /// The field of [`Options`].
    pub name: &'static str,
    /// The `robot_dynamics!` key (`None`: the macro does not take it).
    pub macro_key: Option<&'static str>,
    /// The `rbdgen generate` flag (`None`: the command line does not take it).
    pub flag: Option<&'static str>,
    /// The build script's `Config` method.
    pub method: &'static str,
    /// What it does, in one line.
    pub meaning: &'static str,
    /// Its default, in words.
    pub default: &'static str,
}

/// Every option, in the order of the header's command line.
pub const OPTIONS: &[OptionSpec] = &[
    spec(
        OptionKey::FloatingBase,
        "floating_base",
        Some("floating_base"),
        Some("--floating-base"),
        "floating_base",
        "give the root link a free-flyer joint (`nq += 7`, `nv += 6`)",
        "fixed base",
    ),
    spec(
        OptionKey::Mimic,
        "mimic",
        Some("mimic"),
        Some("--mimic"),
        "mimic",
        "model the URDF's `<mimic>` joints (no entry in `q` or `v`)",
        "mimic tags ignored",
    ),
    spec(
        OptionKey::Functions,
        "functions",
        Some("functions"),
        Some("--functions"),
        "functions",
        "the functions to emit",
        "all (the contact functions with a contact set)",
    ),
    spec(
        OptionKey::Jacobians,
        "jacobians",
        Some("jacobians"),
        Some("--jacobians"),
        "jacobians",
        "also emit `NAME_jacobian` for these functions (automatic differentiation)",
        "none",
    ),
    spec(
        OptionKey::Scalar,
        "scalar",
        Some("scalar"),
        Some("--scalar"),
        "scalar",
        "the floating-point type of the generated code",
        "f64",
    ),
    spec(
        OptionKey::Std,
        "std",
        None,
        Some("--std"),
        "std",
        "let the code use `std` (`f64::mul_add`); the macro always does",
        "no_std",
    ),
    spec(
        OptionKey::Simplify,
        "simplify",
        Some("simplify"),
        Some("--simplify"),
        "simplify",
        "simplify each function with e-graphs (egg) before emitting it",
        "off",
    ),
    spec(
        OptionKey::Armature,
        "armature",
        Some("armature"),
        Some("--armature"),
        "armature",
        "rotor inertia per joint, on the diagonal of `M`",
        "none",
    ),
    spec(
        OptionKey::Contacts,
        "contacts",
        Some("contacts"),
        Some("--contacts"),
        "contacts",
        "the contact set of the contact functions, in row order",
        "none",
    ),
    spec(
        OptionKey::ContactSets,
        "contact_sets",
        Some("contact_sets"),
        Some("--contact-set"),
        "contact_set",
        "named contact sets, each a submodule with its contact functions",
        "none",
    ),
    spec(
        OptionKey::Parameters,
        "parameters",
        Some("parameters"),
        Some("--parameters"),
        "parameters",
        "links whose inertial parameters are the run-time argument `pi`",
        "none",
    ),
    spec(
        OptionKey::Frames,
        "frames",
        Some("frames"),
        Some("--frames"),
        "frames",
        "the link frames of `Frame` and of the per-frame functions",
        "all link frames",
    ),
    spec(
        OptionKey::Lanes,
        "lanes",
        Some("lanes"),
        Some("--lanes"),
        "lanes",
        "also emit every function over L states at once (module `lanes`)",
        "none",
    ),
    spec(
        OptionKey::Threads,
        "threads",
        Some("threads"),
        Some("--threads"),
        "threads",
        "with lanes, also `lanes::NAME_batch_par` on rayon's thread pool",
        "off",
    ),
    spec(
        OptionKey::Strict,
        "strict",
        Some("strict"),
        Some("--strict"),
        "strict",
        "refuse a physically impossible model instead of warning",
        "off",
    ),
    spec(
        OptionKey::MaxOps,
        "max_ops",
        Some("max_ops"),
        Some("--max-ops"),
        "max_ops",
        "the most operations one function may have",
        "200000",
    ),
    spec(
        OptionKey::UnrollLimit,
        "unroll_limit",
        Some("unroll_limit"),
        Some("--unroll-limit"),
        "unroll_limit",
        "above this many operations, `minverse` and the dynamics derivatives loop their columns",
        "40000",
    ),
    spec(
        OptionKey::OneLimbAtATime,
        "one_limb_at_a_time",
        Some("one_limb_at_a_time"),
        Some("--one-limb-at-a-time"),
        "one_limb_at_a_time",
        "write each limb's operations on their own, not side by side in vector lanes",
        "limbs of one shape side by side",
    ),
    spec(
        OptionKey::CApi,
        "c_api",
        None,
        Some("--c-api"),
        "c_api",
        "also emit the C interface (`extern \"C\"` functions and a C header)",
        "none",
    ),
    spec(
        OptionKey::Casadi,
        "casadi",
        None,
        Some("--casadi"),
        "casadi",
        "write the functions as a Python module of CasADi expressions instead of Rust",
        "none",
    ),
    spec(
        OptionKey::UserFunctions,
        "user_functions",
        None,
        None,
        "user_function",
        "functions written in the build script, traced with their derivatives",
        "none",
    ),
];

/// A row of [`OPTIONS`].
#[allow(clippy::too_many_arguments)]
const fn spec(
    key: OptionKey,
    name: &'static str,
    macro_key: Option<&'static str>,
    flag: Option<&'static str>,
    method: &'static str,
    meaning: &'static str,
    default: &'static str,
) -> OptionSpec {
    OptionSpec {
        key,
        name,
        macro_key,
        flag,
        method,
        meaning,
        default,
    }
}

impl OptionKey {
    /// This option's row of [`OPTIONS`].
    pub fn spec(self) -> &'static OptionSpec {
        OPTIONS
            .iter()
            .find(|s| s.key == self)
            .expect("every option has a row in OPTIONS")
    }

    /// The option whose `robot_dynamics!` key is `key`; `Err` names the keys
    /// the macro takes.
    pub fn from_macro_key(key: &str) -> Result<OptionKey, String> {
        match OPTIONS.iter().find(|s| s.macro_key == Some(key)) {
            Some(spec) => Ok(spec.key),
            None => {
                let known: Vec<String> = OPTIONS
                    .iter()
                    .filter_map(|s| s.macro_key.map(|k| format!("`{k}`")))
                    .collect();
                Err(format!(
                    "unknown option `{key}`; expected one of {}",
                    known.join(", ")
                ))
            }
        }
    }
}

/// A wrong option: which one, which entry of its list, and what is wrong, in
/// words that quote neither the macro's syntax nor the command line's (each
/// front end adds its own spelling with [`OptionError::render`]).
#[derive(Clone, Debug, PartialEq)]
pub struct OptionError {
    /// The option at fault.
    pub option: OptionKey,
    /// The entry of its list (the list as given; for `functions` and
    /// `jacobians`, the set in [`Function`] order; for `contact_sets`, the set).
    pub index: Option<usize>,
    /// For `contact_sets`, the contact within the set `index`.
    pub entry: Option<usize>,
    /// What is wrong.
    pub message: String,
    /// Another option that would make this one right (`lanes` for `threads`,
    /// `contacts` for a contact function).
    pub hint: Option<OptionKey>,
}

impl OptionError {
    fn new(option: OptionKey, index: Option<usize>, message: String) -> OptionError {
        OptionError {
            option,
            index,
            entry: None,
            message,
            hint: None,
        }
    }

    fn hint(mut self, hint: OptionKey) -> OptionError {
        self.hint = Some(hint);
        self
    }

    /// The message with its hint, the other option spelt by `spell`
    /// (`--lanes` on the command line, `` `lanes` `` in the macro).
    pub fn render(&self, spell: impl Fn(&OptionSpec) -> String) -> String {
        match self.hint {
            Some(hint) => format!("{}; add {}", self.message, spell(hint.spec())),
            None => self.message.clone(),
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = self.render(|s| format!("`{}`", s.name));
        write!(f, "{}: {text}", self.option.spec().name)
    }
}

impl std::error::Error for OptionError {}

/// The lane counts of `lanes = L` for a scalar type: the widths of the `wide`
/// crate's vectors (`f64x2`, `f64x4`, `f64x8`; `f32x4`, `f32x8`, `f32x16`).
pub fn lane_widths(scalar: ScalarType) -> &'static [usize] {
    match scalar {
        ScalarType::F64 => &[2, 4, 8],
        ScalarType::F32 => &[4, 8, 16],
    }
}

/// Whether `name` is a C identifier (ASCII letters, digits and `_`, not
/// starting with a digit).
pub fn is_c_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether `name` can name a contact set's submodule: a lowercase Rust
/// identifier other than `lanes`, `c_api` and keywords.
pub fn is_set_name(name: &str) -> bool {
    const TAKEN: [&str; 8] = [
        "lanes", "c_api", "self", "super", "crate", "mod", "fn", "type",
    ];
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_lowercase() || c == '_')
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !TAKEN.contains(&name)
        && syn::parse_str::<syn::Ident>(name).is_ok()
}

/// The message for an unknown function name among `known`: ours for
/// Pinocchio's name ([`Function::alias`]: "did you mean `rnea`?" for
/// `inverse_dynamics`) when it is known, the nearest known name for a near
/// miss (`crab`: `crba`), else the list of `known`.
pub fn unknown_function(name: &str, known: &[Function]) -> String {
    let names: Vec<&str> = known.iter().map(|f| f.name()).collect();
    let near = Function::alias(name)
        .filter(|f| known.contains(f))
        .map(Function::name)
        .or_else(|| rbdgen_runtime::error::nearest(name, names.iter().copied()));
    match near {
        Some(near) => format!("unknown function `{name}`; did you mean `{near}`?"),
        None => format!("unknown function `{name}`; known: {}", names.join(", ")),
    }
}

/// The functions of a `functions` or `jacobians` list as a front end read
/// it: each name known, none twice, at least one.
///
/// # Errors
/// An [`OptionError`] on `option`, with the index of the bad name.
pub fn parse_functions(
    option: OptionKey,
    names: &[&str],
) -> Result<BTreeSet<Function>, OptionError> {
    if names.is_empty() {
        let hint = if option == OptionKey::Functions {
            "leave the option out for all of them"
        } else {
            "leave the option out for none"
        };
        return Err(OptionError::new(
            option,
            None,
            format!("the list names no function; {hint}"),
        ));
    }
    let mut set = BTreeSet::new();
    for (k, name) in names.iter().map(|n| n.trim()).enumerate() {
        let error = |message: String| OptionError::new(option, Some(k), message);
        if name.is_empty() {
            return Err(error(
                "an empty name; name functions, or leave the option out".into(),
            ));
        }
        let f = Function::from_name(name)
            .ok_or_else(|| error(unknown_function(name, &Function::ALL)))?;
        if !set.insert(f) {
            return Err(error(format!("`{name}` is listed twice")));
        }
    }
    Ok(set)
}

impl Options {
    /// Every check that needs no model: lane widths for the scalar type,
    /// threads with lanes, the C prefix, the contact set names, each joint's
    /// armature once, contact functions with a contact set.
    ///
    /// # Errors
    /// The first [`OptionError`].
    pub fn check(&self) -> Result<(), OptionError> {
        if let Some(l) = self.lanes.filter(|l| !lane_widths(self.scalar).contains(l)) {
            let w: Vec<String> = lane_widths(self.scalar)
                .iter()
                .map(ToString::to_string)
                .collect();
            let expected = format!("{} or {}", w[..w.len() - 1].join(", "), w[w.len() - 1]);
            return Err(OptionError::new(
                OptionKey::Lanes,
                None,
                format!("{l} lanes with {}: expected {expected}", self.scalar.name()),
            ));
        }
        if self.threads && self.lanes.is_none() {
            return Err(OptionError::new(
                OptionKey::Threads,
                None,
                "`NAME_batch_par` splits the lanes' batch across threads".into(),
            )
            .hint(OptionKey::Lanes));
        }
        if let Some(prefix) = self.c_api.as_ref().filter(|p| !is_c_identifier(p)) {
            return Err(OptionError::new(
                OptionKey::CApi,
                None,
                format!("`{prefix}` is not a C identifier (letters, digits and `_`, not starting with a digit)"),
            ));
        }
        if let Some(name) = self.casadi.as_ref().filter(|p| !is_c_identifier(p)) {
            return Err(OptionError::new(
                OptionKey::Casadi,
                None,
                format!("`{name}` is not a Python module name (letters, digits and `_`, not starting with a digit)"),
            ));
        }
        for (k, (name, _)) in self.contact_sets.iter().enumerate() {
            let message = if !is_set_name(name) {
                format!("contact set `{name}`: a set is a submodule; name it with a lowercase identifier \
                         (letters, digits, `_`) other than `lanes`, `c_api` and Rust keywords")
            } else if self.contact_sets[..k].iter().any(|(n, _)| n == name) {
                format!("contact set `{name}`: named twice")
            } else {
                continue;
            };
            return Err(OptionError::new(OptionKey::ContactSets, Some(k), message));
        }
        for (k, (joint, _)) in self.armature.iter().enumerate() {
            if self.armature[..k].iter().any(|(j, _)| j == joint) {
                let message = format!("armature of joint `{joint}`: named twice");
                return Err(OptionError::new(OptionKey::Armature, Some(k), message));
            }
        }
        if self.contacts.is_empty() && self.contact_sets.is_empty() {
            let all = self.functions.len() == Function::ALL.len();
            for (option, set) in [
                (OptionKey::Functions, &self.functions),
                (OptionKey::Jacobians, &self.jacobians),
            ] {
                if option == OptionKey::Functions && all {
                    continue;
                }
                if let Some((k, f)) = set.iter().enumerate().find(|(_, f)| f.needs_contacts()) {
                    let message = format!("`{}` needs a contact set", f.name());
                    return Err(
                        OptionError::new(option, Some(k), message).hint(OptionKey::Contacts)
                    );
                }
            }
        }
        Ok(())
    }
}

/// The model with the options' armature, contacts, run-time parameters set,
/// the frames and every contact set checked against it: the checks that
/// need the model, in one place.
///
/// # Errors
/// An [`OptionError`] naming the entry: an unknown joint or link, a negative
/// armature, a contact or a parameter on a link welded to the universe, an
/// unknown frame.
pub fn apply_to_model(options: &Options, model: &mut Model) -> Result<(), OptionError> {
    let at = |option: OptionKey, k: usize| {
        move |e: ModelError| OptionError::new(option, Some(k), e.to_string())
    };
    for (k, (joint, value)) in options.armature.iter().enumerate() {
        model
            .set_armature(joint, *value)
            .map_err(at(OptionKey::Armature, k))?;
    }
    for (k, (_, set)) in options.contact_sets.iter().enumerate() {
        let mut m = model.clone();
        for j in 0..set.len() {
            let contacts: Vec<(&str, ContactKind)> =
                set[..=j].iter().map(|(n, c)| (n.as_str(), *c)).collect();
            m.set_contacts(&contacts).map_err(|e| OptionError {
                entry: Some(j),
                ..at(OptionKey::ContactSets, k)(e)
            })?;
        }
    }
    for k in 0..options.contacts.len() {
        let contacts: Vec<(&str, ContactKind)> = options.contacts[..=k]
            .iter()
            .map(|(n, c)| (n.as_str(), *c))
            .collect();
        model
            .set_contacts(&contacts)
            .map_err(at(OptionKey::Contacts, k))?;
    }
    for k in 0..options.parameters.len() {
        let links: Vec<&str> = options.parameters[..=k]
            .iter()
            .map(String::as_str)
            .collect();
        model
            .set_parameters(&links)
            .map_err(at(OptionKey::Parameters, k))?;
    }
    for (k, name) in options.frames.iter().flatten().enumerate() {
        if name.trim().is_empty() {
            let message = "an empty name; name link frames, or leave the option out";
            return Err(OptionError::new(OptionKey::Frames, Some(k), message.into()));
        }
        model.link_frame(name).map_err(at(OptionKey::Frames, k))?;
    }
    Ok(())
}

/// The `rbdgen generate` arguments that reproduce `options` (after the URDF),
/// as the header's "Regenerate with" line shows them. They are printed here,
/// beside the header, because `robot_dynamics!`'s expansion carries that
/// header too; the CLI parses them (its tests read this text back).
pub fn command_line_options(options: &Options) -> String {
    let mut args = Vec::new();
    for spec in OPTIONS {
        let Some(name) = spec.flag else { continue };
        let value = match spec.key {
            OptionKey::FloatingBase => options.floating_base.then(String::new),
            OptionKey::Mimic => options.mimic.then(String::new),
            OptionKey::Functions => (options.functions.len() != Function::ALL.len()).then(|| {
                let names: Vec<&str> = options.functions.iter().map(|f| f.name()).collect();
                names.join(",")
            }),
            OptionKey::Jacobians => (!options.jacobians.is_empty()).then(|| {
                let names: Vec<&str> = options.jacobians.iter().map(|f| f.name()).collect();
                names.join(",")
            }),
            OptionKey::Scalar => {
                (options.scalar != ScalarType::F64).then(|| options.scalar.name().to_string())
            }
            OptionKey::Std => options.std.then(String::new),
            OptionKey::Simplify => options.simplify.then(String::new),
            OptionKey::Armature => (!options.armature.is_empty()).then(|| {
                let list: Vec<String> = options
                    .armature
                    .iter()
                    .map(|(j, a)| format!("{j}={a:?}"))
                    .collect();
                list.join(",")
            }),
            OptionKey::Contacts => {
                (!options.contacts.is_empty()).then(|| contact_list(&options.contacts))
            }
            OptionKey::ContactSets => {
                for (set, contacts) in &options.contact_sets {
                    args.push(format!("{name} {set}={}", contact_list(contacts)));
                }
                None
            }
            OptionKey::Parameters => {
                (!options.parameters.is_empty()).then(|| options.parameters.join(","))
            }
            OptionKey::Frames => options.frames.as_ref().map(|f| f.join(",")),
            OptionKey::Lanes => options.lanes.map(|l| l.to_string()),
            OptionKey::Threads => options.threads.then(String::new),
            OptionKey::Strict => options.strict.then(String::new),
            OptionKey::OneLimbAtATime => options.one_limb_at_a_time.then(String::new),
            OptionKey::MaxOps => {
                (options.max_ops != DEFAULT_MAX_OPS).then(|| options.max_ops.to_string())
            }
            OptionKey::UnrollLimit => (options.unroll_limit != DEFAULT_UNROLL_LIMIT)
                .then(|| options.unroll_limit.to_string()),
            OptionKey::CApi => options.c_api.clone(),
            OptionKey::Casadi => options.casadi.clone(),
            OptionKey::UserFunctions => None,
        };
        match value {
            Some(v) if v.is_empty() => args.push(name.to_string()),
            Some(v) => args.push(format!("{name} {v}")),
            None => {}
        }
    }
    args.join(" ")
}

/// `LINK:point,LINK:6d`.
fn contact_list(contacts: &[(String, ContactKind)]) -> String {
    let list: Vec<String> = contacts
        .iter()
        .map(|(f, k)| format!("{f}:{}", k.name()))
        .collect();
    list.join(",")
}
