//! The subcommands of `rbdgen`, one module each: arguments and `run`; and the
//! pieces they share.

pub mod compare;
pub mod eval;
pub mod eval_generated;
pub mod generate;
pub mod harness;
pub mod info;
pub mod verify;

/// A failed subcommand: the message to print and the process exit code.
#[derive(Debug)]
pub struct Failure {
    /// What went wrong, naming the file or function.
    pub message: String,
    /// 1 for a failed check (a stale file, an error above tolerance), 2 for
    /// anything else (bad input, I/O, a failed build).
    pub code: u8,
}

impl Failure {
    /// A failed check: exit code 1.
    pub fn check(message: String) -> Failure {
        Failure { message, code: 1 }
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure { message, code: 2 }
    }
}

/// The arguments that choose the generated code, shared by `generate` and `verify`.
#[derive(clap::Args, Debug)]
pub struct CodeArgs {
    /// The model file, a URDF or MJCF (`.xml`); its name is written in the
    /// header as given.
    #[arg(value_name = "MODEL")]
    pub urdf: std::path::PathBuf,
    /// Give the root link a free-flyer joint.
    #[arg(long)]
    pub floating_base: bool,
    /// Comma-separated functions to emit (rnea, crba, aba, minverse, ..., the names
    /// `robot_dynamics!` takes, listed in the README); all by default.
    #[arg(long, value_delimiter = ',')]
    pub functions: Vec<String>,
    /// Comma-separated functions whose Jacobian to emit too, as `NAME_jacobian`,
    /// by automatic differentiation of the traced graph (one block per argument,
    /// a configuration's in the tangent space); none by default.
    #[arg(long, value_delimiter = ',')]
    pub jacobians: Vec<String>,
    /// Floating-point type of the generated code: f64, or f32 for microcontrollers.
    #[arg(long, default_value = "f64")]
    pub scalar: String,
    /// Simplify each function with egg (rewrite rules, constant folding, DAG
    /// extraction) before emitting it; the header gives operation counts before
    /// and after.
    #[arg(long)]
    pub simplify: bool,
    /// The generated code may use `std`: fused multiply-adds become FMA
    /// instructions on targets that have them (`-C target-cpu=native`); without
    /// it the code is `no_std` and they are a product and a sum
    #[arg(long)]
    pub std: bool,
    /// Also emit every function over this many states at once (2, 4 or 8;
    /// with `--scalar f32` 4, 8 or 16): a module `lanes` with the lane type `V`
    /// (a vector of the `wide` crate, which the including crate depends on),
    /// each function's kernel and its `NAME_aos` and `NAME_batch` wrappers.
    #[arg(long, value_name = "L", allow_negative_numbers = true)]
    pub lanes: Option<usize>,
    /// With --lanes: also emit `lanes::NAME_batch_par`, the batch split across
    /// rayon's thread pool (the crate that includes the file depends on `rayon`).
    #[arg(long)]
    pub threads: bool,
    /// The most operations one generated function may have: a larger one is
    /// refused, naming it (rustc takes about 1 ms per operation at opt-level
    /// 3, so the default, 200000, is a build of about three minutes).
    #[arg(
        long,
        value_name = "N",
        default_value_t = rbdgen_symbolic::DEFAULT_MAX_OPS,
        allow_negative_numbers = true
    )]
    pub max_ops: usize,
    /// A function with a column form (`minverse`, `aba_derivatives`,
    /// `aba_derivatives_fext`, `rnea_derivatives`, `rnea_derivatives_fext`)
    /// that runs more operations than this in that form (for the columns of
    /// `∂τ`: three times this in `rnea_derivatives`, four in
    /// `aba_derivatives`) writes the code of one column once per chain of
    /// dofs and loops it over the columns, so that its machine code fits the
    /// caches; 0 loops them always.
    #[arg(
        long,
        value_name = "N",
        default_value_t = rbdgen_symbolic::DEFAULT_UNROLL_LIMIT,
        allow_negative_numbers = true
    )]
    pub unroll_limit: usize,
    /// Write each limb's operations on their own, one value at a time,
    /// instead of the limbs of one shape (the legs of a quadruped, the arms
    /// of a humanoid) side by side in the lanes of `wide`'s `f64x4`: for
    /// targets without vector registers.
    #[arg(long)]
    pub one_limb_at_a_time: bool,
    /// Also emit the C interface, prefixed with NAME (a C identifier, usually
    /// the module's name): a module `c_api` of `extern "C"` functions
    /// `NAME_FUNCTION` and `NAME_FUNCTION_batch` returning a status code
    /// (`generate --header FILE` writes their C header, `--crate DIR` a
    /// staticlib and cdylib crate).
    #[arg(long, value_name = "NAME")]
    pub c_api: Option<String>,
    /// Write the functions as the Python module NAME of CasADi expressions
    /// instead of Rust (`-o NAME.py`): each takes CasADi SX, MX or numbers
    /// and builds the traced graph; `function(NAME)` is its casadi.Function
    /// (docs/casadi.md).
    #[arg(long, value_name = "NAME")]
    pub casadi: Option<String>,
    #[command(flatten)]
    pub model: ModelArgs,
}

/// The arguments that change the model the code is generated for (or the
/// quantities are evaluated on): armature, contact set, run-time inertial
/// parameters, and the link frames of the per-frame functions. Shared by
/// `generate`, `verify`, `info` and `eval`.
#[derive(clap::Args, Debug, Default, Clone)]
pub struct ModelArgs {
    /// Model the URDF's `<mimic>` joints as Pinocchio's
    /// `buildModelFromUrdf(.., mimic=True)`: a mimicking joint follows
    /// `multiplier θ_primary + offset` and has no entry in `q` or `v`.
    #[arg(long)]
    pub mimic: bool,
    /// Armature (rotor inertia, kg·m² for a revolute joint, kg for a prismatic
    /// one) per joint, comma-separated `JOINT=VALUE`: added to the diagonal of
    /// the mass matrix in every dynamics function (Pinocchio's
    /// `model.armature`; a joint with several dofs gets VALUE on each).
    #[arg(long, value_delimiter = ',', value_name = "JOINT=VALUE")]
    pub armature: Vec<String>,
    /// The contact set of the contact functions, in row order, comma-separated
    /// `LINK:point` (3 rows: the origin's linear velocity in world axes) or
    /// `LINK:6d` (6 rows: the frame's twist in its own axes).
    #[arg(long, value_delimiter = ',', value_name = "LINK:point|6d")]
    pub contacts: Vec<String>,
    /// A named contact set, `NAME=LINK:point,LINK:6d,...` (`NAME=` for
    /// flight), repeatable: the contact functions are emitted once per set, in
    /// a submodule `NAME` (gait modes of one MPC horizon), the other functions
    /// once.
    #[arg(long = "contact-set", value_name = "NAME=LINK:point|6d,...")]
    pub contact_sets: Vec<String>,
    /// Links whose inertial parameters become a run-time argument `pi` of
    /// every function that reads inertias (a payload), comma-separated.
    #[arg(long, value_delimiter = ',', value_name = "LINK")]
    pub parameters: Vec<String>,
    /// The link frames of the per-frame functions, comma-separated; all link
    /// frames by default.
    #[arg(long, value_delimiter = ',', value_name = "LINK")]
    pub frames: Option<Vec<String>>,
    /// Refuse a model that Pinocchio accepts but no rigid body has (a link
    /// inertia that violates the triangle inequality, a moving joint that
    /// carries no mass), or a file with an element or attribute its format
    /// does not have (a misspelled `<inertial>`), instead of warning about it
    /// on stderr.
    #[arg(long)]
    pub strict: bool,
}

impl ModelArgs {
    /// Sets the armature, contacts, run-time parameters, frames and
    /// strictness of `options`.
    /// The names are checked when the model is built
    /// ([`rbdgen_symbolic::build_model`]).
    ///
    /// # Errors
    /// A message naming the malformed item: an armature without `=` or with a
    /// value that is not a number, a contact without `:` or of another kind
    /// than `point` and `6d`.
    pub fn apply(&self, options: &mut rbdgen_symbolic::Options) -> Result<(), String> {
        use rbdgen_symbolic::ContactKind;
        options.mimic = self.mimic;
        options.armature = self
            .armature
            .iter()
            .map(|item| {
                let (joint, value) = item.split_once('=').ok_or_else(|| {
                    format!("--armature `{item}`: expected JOINT=VALUE (`hip=0.01`)")
                })?;
                let value: f64 = value
                    .trim()
                    .parse()
                    .map_err(|_| format!("--armature `{item}`: `{value}` is not a number"))?;
                Ok((joint.trim().to_string(), value))
            })
            .collect::<Result<_, String>>()?;
        let contact = |flag: &str, item: &str| -> Result<(String, ContactKind), String> {
            let (link, kind) = item
                .rsplit_once(':')
                .ok_or_else(|| format!("{flag} `{item}`: expected LINK:point or LINK:6d"))?;
            let kind = ContactKind::from_name(kind.trim())
                .ok_or_else(|| format!("{flag} `{item}`: `{kind}` is not `point` or `6d`"))?;
            Ok((link.trim().to_string(), kind))
        };
        options.contacts = self
            .contacts
            .iter()
            .map(|item| contact("--contacts", item))
            .collect::<Result<_, String>>()?;
        options.contact_sets = self
            .contact_sets
            .iter()
            .map(|set| {
                let (name, list) = set.split_once('=').ok_or_else(|| {
                    format!(
                        "--contact-set `{set}`: expected NAME=LINK:point,... (`NAME=` for none)"
                    )
                })?;
                let items = list
                    .split(',')
                    .map(str::trim)
                    .filter(|item| !item.is_empty())
                    .map(|item| contact("--contact-set", item))
                    .collect::<Result<_, String>>()?;
                Ok((name.trim().to_string(), items))
            })
            .collect::<Result<_, String>>()?;
        options.parameters = self
            .parameters
            .iter()
            .map(|s| s.trim().to_string())
            .collect();
        options.frames = self
            .frames
            .as_ref()
            .map(|f| f.iter().map(|s| s.trim().to_string()).collect());
        options.strict = self.strict;
        Ok(())
    }
}

/// The model of `text` (the URDF at `urdf`) with the options' armature,
/// contacts, run-time parameters and frames checked and applied.
///
/// # Errors
/// `URDF: message` for a URDF that does not make a model or a bad name or
/// value in the options.
pub fn build_model(
    urdf: &std::path::Path,
    text: &str,
    options: &rbdgen_symbolic::Options,
) -> Result<rbdgen_runtime::Model, String> {
    rbdgen_symbolic::build_model(text, options).map_err(|e| generate_error(urdf, &e))
}

/// `URDF: message` for a generator's error, options named by their flags
/// (`--functions: ...`, `--threads: ...; add --lanes`, `raise the limit with
/// --max-ops`).
pub fn generate_error(urdf: &std::path::Path, e: &rbdgen_symbolic::GenerateError) -> String {
    format!("{}: {}", urdf.display(), e.render(flag))
}

/// An option's command-line flag (its name where it has none).
pub fn flag(s: &rbdgen_symbolic::OptionSpec) -> String {
    s.flag.unwrap_or(s.name).to_string()
}

/// A wrong option in the command line's words: `--FLAG: message`.
pub fn option_error(e: &rbdgen_symbolic::OptionError) -> String {
    format!("{}: {}", flag(e.option.spec()), e.render(flag))
}

/// Prints each of `warnings` on stderr as `rbdgen: warning: URDF: message`.
pub fn print_warnings(urdf: &std::path::Path, warnings: &[impl std::fmt::Display]) {
    for warning in warnings {
        eprintln!("rbdgen: warning: {}: {warning}", urdf.display());
    }
}

/// A progress bar on stderr of `len` steps, hidden when `quiet` or when
/// stderr is not a terminal.
pub fn progress_bar(len: usize, prefix: &'static str, quiet: bool) -> indicatif::ProgressBar {
    use std::io::IsTerminal;

    use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

    let bar = ProgressBar::new(len as u64);
    if quiet || !std::io::stderr().is_terminal() {
        bar.set_draw_target(ProgressDrawTarget::hidden());
    } else {
        bar.set_draw_target(ProgressDrawTarget::stderr());
        if let Ok(style) =
            ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {msg} ({elapsed})")
        {
            bar.set_style(style.progress_chars("=> "));
        }
        bar.set_prefix(prefix);
    }
    bar
}

impl CodeArgs {
    /// The URDF text and the generation options these arguments ask for.
    ///
    /// # Errors
    /// An unreadable file, an unknown, empty or repeated function name, an
    /// unknown scalar type, a malformed armature or contact, an option that
    /// [`rbdgen_symbolic::Options::check`] refuses (named by its flag).
    pub fn load(&self) -> Result<(String, rbdgen_symbolic::Options), String> {
        use rbdgen_symbolic::{parse_functions, OptionKey, Options, ScalarType};
        let text = crate::read_description(&self.urdf)?;
        let scalar = ScalarType::from_name(&self.scalar).ok_or_else(|| {
            format!(
                "--scalar: unknown scalar `{}`; expected f64 or f32",
                self.scalar
            )
        })?;
        let mut options = Options {
            floating_base: self.floating_base,
            source_name: self.urdf.to_string_lossy().into_owned(),
            scalar,
            simplify: self.simplify,
            std: self.std,
            lanes: self.lanes,
            threads: self.threads,
            max_ops: self.max_ops,
            unroll_limit: self.unroll_limit,
            one_limb_at_a_time: self.one_limb_at_a_time,
            c_api: self.c_api.clone(),
            casadi: self.casadi.clone(),
            ..Options::default()
        };
        self.model
            .apply(&mut options)
            .map_err(|e| format!("{}: {e}", self.urdf.display()))?;
        fn names(list: &[String]) -> Vec<&str> {
            list.iter().map(String::as_str).collect()
        }
        if !self.functions.is_empty() {
            options.functions = parse_functions(OptionKey::Functions, &names(&self.functions))
                .map_err(|e| option_error(&e))?;
        }
        if !self.jacobians.is_empty() {
            options.jacobians = parse_functions(OptionKey::Jacobians, &names(&self.jacobians))
                .map_err(|e| option_error(&e))?;
        }
        options.check().map_err(|e| option_error(&e))?;
        Ok((text, options))
    }

    /// Generates the module, with a progress bar on stderr (one step per
    /// function) unless `quiet` or stderr is not a terminal, and prints the
    /// model's warnings ([`rbdgen_symbolic::Module::warnings`]) on stderr.
    ///
    /// # Errors
    /// As [`CodeArgs::load`], and a URDF that does not make code.
    pub fn generate(
        &self,
        quiet: bool,
    ) -> Result<(String, rbdgen_symbolic::Options, rbdgen_symbolic::Module), String> {
        use rbdgen_symbolic::{generate_module, Progress};

        let (text, options) = self.load()?;
        let steps = options.functions.len() + options.jacobians.len();
        let bar = progress_bar(steps, "generating", quiet);
        let module = generate_module(&text, &options, |step| match step {
            Progress::Start(f) => bar.set_message(f.name()),
            Progress::JacobianStart(f) => bar.set_message(format!("{}_jacobian", f.name())),
            Progress::Done(..) | Progress::JacobianDone(..) => bar.inc(1),
        })
        .map_err(|e| generate_error(&self.urdf, &e));
        bar.finish_and_clear();
        if let Err(error) = &module {
            // The warnings first: a singular mass matrix is often why a
            // function failed (a constant that evaluates to inf); but not
            // one that the error says already (a massless joint's sentence).
            if let Ok(model) = rbdgen_symbolic::build_model(&text, &options) {
                let warnings: Vec<_> = model
                    .physical_warnings()
                    .into_iter()
                    .filter(|w| !error.contains(&w.to_string()))
                    .collect();
                print_warnings(&self.urdf, &warnings);
            }
        }
        let module = module?;
        print_warnings(&self.urdf, &module.warnings);
        Ok((text, options, module))
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;
    use rbdgen_symbolic::{command_line_options, ContactKind, Function, Options, ScalarType};

    use super::CodeArgs;

    #[derive(Parser)]
    struct Generate {
        #[command(flatten)]
        code: CodeArgs,
    }

    /// The flags a generated file's header prints (`command_line_options`,
    /// beside the header because the macro's expansion carries it too) are
    /// the ones these arguments parse back to the same options.
    #[test]
    fn header_flags_parse_back_to_the_options() {
        let urdf = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/go2_z1.urdf");
        let plain = Options {
            source_name: urdf.to_string(),
            ..Options::default()
        };
        let every = Options {
            floating_base: true,
            functions: [
                Function::Rnea,
                Function::ContactJacobian,
                Function::AbaDerivatives,
            ]
            .into_iter()
            .collect(),
            scalar: ScalarType::F32,
            simplify: true,
            std: true,
            armature: vec![
                ("FL_hip_joint".into(), 0.01),
                ("FR_calf_joint".into(), 2.5e-3),
            ],
            contacts: vec![
                ("FL_foot".into(), ContactKind::Point),
                ("RR_foot".into(), ContactKind::Frame6d),
            ],
            parameters: vec!["FL_foot".into(), "RR_foot".into()],
            frames: Some(vec!["FL_foot".into(), "RR_foot".into()]),
            lanes: Some(4),
            threads: true,
            mimic: true,
            strict: true,
            max_ops: 1_000_000,
            unroll_limit: 0,
            one_limb_at_a_time: true,
            jacobians: [Function::CenterOfMass, Function::KineticEnergy]
                .into_iter()
                .collect(),
            c_api: Some("go2_z1".into()),
            casadi: Some("go2_z1_casadi".into()),
            ..plain.clone()
        };
        for options in [plain, every] {
            let flags = command_line_options(&options);
            let args = ["rbdgen", urdf]
                .into_iter()
                .chain(flags.split(' ').filter(|a| !a.is_empty()));
            let parsed = Generate::try_parse_from(args).unwrap_or_else(|e| panic!("{flags}: {e}"));
            let (_, back) = parsed.code.load().unwrap();
            assert_eq!(back, options, "{flags}");
        }
    }

    /// Every option with a flag parses and loads into its field (the match
    /// is exhaustive over `OptionKey`: a new option needs an example here).
    #[test]
    fn every_flag_parses() {
        use rbdgen_symbolic::{OptionKey, OPTIONS};
        let urdf = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/z1.urdf");
        let plain = Options {
            source_name: urdf.to_string(),
            ..Options::default()
        };
        for spec in OPTIONS {
            let Some(flag) = spec.flag else { continue };
            let values: &[&str] = match spec.key {
                OptionKey::FloatingBase
                | OptionKey::Mimic
                | OptionKey::Simplify
                | OptionKey::Std
                | OptionKey::Strict
                | OptionKey::OneLimbAtATime => &[],
                OptionKey::Threads => &["--lanes", "4"],
                OptionKey::Functions | OptionKey::Jacobians => &["rnea,crba"],
                OptionKey::Scalar => &["f32"],
                OptionKey::Armature => &["joint1=0.1"],
                OptionKey::Contacts => &["link06:point"],
                OptionKey::ContactSets => &["stance=link06:6d"],
                OptionKey::Parameters | OptionKey::Frames => &["link06"],
                OptionKey::Lanes => &["4"],
                OptionKey::MaxOps | OptionKey::UnrollLimit => &["1000"],
                OptionKey::CApi | OptionKey::Casadi => &["z1"],
                OptionKey::UserFunctions => panic!("{flag}: not a flag"),
            };
            let head = ["rbdgen", urdf, flag];
            let args = head.iter().chain(values);
            let parsed = Generate::try_parse_from(args).unwrap_or_else(|e| panic!("{flag}: {e}"));
            let (_, options) = parsed.code.load().unwrap_or_else(|e| panic!("{flag}: {e}"));
            assert_ne!(options, plain, "{flag}");
        }
    }
}
