//! `rbdgen eval`: every quantity of the eval format at the states of a file,
//! computed by the runtime or by the compiled generated code
//! ([`eval_generated`]).
//!
//! [`eval_generated`]: super::eval_generated

use std::path::PathBuf;

use rbdgen_cli::eval::{evaluate, keep_frames, StatesFile};
use rbdgen_symbolic::{Function, Options};

use super::eval_generated::{eval_functions, evaluate_generated};
use super::verify::sanitize;
use super::ModelArgs;

/// Where the numbers come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Backend {
    /// The generic runtime algorithms on `f64`.
    Runtime,
    /// The generated code, built with `cargo build --release` in a crate of
    /// its own (needs cargo; the derivatives make the build long, restrict it
    /// with --functions). Quantities without a generated function (`omi`),
    /// or whose functions --functions leaves out, come from the runtime.
    Generated,
}

/// Arguments of `rbdgen eval`.
#[derive(clap::Args)]
pub struct Args {
    /// The model file: a URDF, or MJCF (`.xml`).
    #[arg(value_name = "MODEL", required_unless_present = "urdf")]
    file: Option<PathBuf>,
    /// The model file, as MODEL (the option of earlier versions, kept for scripts).
    #[arg(long, value_name = "MODEL", hide = true, conflicts_with = "file")]
    urdf: Option<PathBuf>,
    /// Give the root link a free-flyer joint.
    #[arg(long)]
    floating_base: bool,
    /// A file in the eval format: its model header (with its `armature` and
    /// `contacts`, when present) and the inputs `q v a tau w q2` (and `fext`)
    /// of each state are read (a reference file works).
    #[arg(long)]
    states: PathBuf,
    /// Armature, contacts, run-time parameters, frames: as for `generate`. The
    /// file header's `armature` and `contacts` apply too, and must agree with
    /// these when both are given; with --frames only those link frames are
    /// in the output.
    #[command(flatten)]
    model: ModelArgs,
    /// Output file; standard output when absent (`--out` is the same flag).
    #[arg(short, long, visible_alias = "out", value_name = "FILE")]
    output: Option<PathBuf>,
    /// What computes the quantities: the runtime, or the generated code
    /// (quantities without a generated function come from the runtime).
    #[arg(long, value_enum, default_value = "runtime")]
    backend: Backend,
    /// With `--backend generated`: comma-separated generated functions to
    /// build (rnea, crba, frame_jacobian_local, ccrba, rnea_derivatives,
    /// d_integrate_dq, ...); the quantities of the others come from the
    /// runtime. Every function with an eval quantity whose inputs the file has
    /// by default (the contact functions need a contact set, the `*_fext`
    /// ones `fext` in every state).
    #[arg(long, value_delimiter = ',')]
    functions: Vec<String>,
    /// With `--backend generated`: directory of the crate that builds the
    /// generated code (kept between runs so that rebuilds are quick);
    /// `rbdgen-eval` in the system's temporary directory by default.
    #[arg(long)]
    work_dir: Option<PathBuf>,
    /// With `--backend generated`: Cargo's target directory for that crate
    /// (`target/` inside it by default). One directory shared by several work
    /// directories builds the generated crates' dependencies once.
    #[arg(long)]
    target_dir: Option<PathBuf>,
    /// With `--backend generated`: as for `generate`, the most operations one
    /// generated function may have.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    max_ops: Option<usize>,
    /// With `--backend generated`: as for `generate`, the operations above
    /// which `minverse` and the dynamics derivatives loop their columns.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    unroll_limit: Option<usize>,
    /// No build messages on stderr.
    #[arg(long)]
    quiet: bool,
}

/// Runs the subcommand; the error is the message to print.
pub fn run(args: Args) -> Result<(), String> {
    let Args {
        file,
        urdf,
        floating_base,
        states,
        model: model_args,
        output: out,
        backend,
        functions,
        work_dir,
        target_dir,
        max_ops,
        unroll_limit,
        quiet,
    } = args;
    let urdf = file
        .or(urdf)
        .ok_or("eval: name the model file (`rbdgen eval MODEL --states FILE`)")?;
    let sizes = max_ops.is_some() || unroll_limit.is_some();
    let dirs = work_dir.is_some() || target_dir.is_some();
    if backend == Backend::Runtime && (!functions.is_empty() || dirs || sizes) {
        return Err(
            "--functions, --work-dir, --target-dir, --max-ops and --unroll-limit need --backend generated"
                .into(),
        );
    }
    let text = crate::read_description(&urdf)?;
    let file = StatesFile::parse(&crate::read(&states)?)
        .map_err(|e| format!("{}: {e}", states.display()))?;
    let name = urdf.to_string_lossy();
    let defaults = Options::default();
    let mut options = Options {
        floating_base,
        source_name: name.to_string(),
        max_ops: max_ops.unwrap_or(defaults.max_ops),
        unroll_limit: unroll_limit.unwrap_or(defaults.unroll_limit),
        ..defaults
    };
    model_args
        .apply(&mut options)
        .map_err(|e| format!("{}: {e}", urdf.display()))?;
    // The URDF and the command line's settings first: their errors name the URDF.
    let model = super::build_model(&urdf, &text, &options)?;
    // Before anything divides by the zero mass of a massless subtree.
    super::print_warnings(&urdf, &model.physical_warnings());
    super::print_warnings(&states, &quaternion_warnings(&model, &file));
    let doc = match backend {
        Backend::Runtime => {
            let mut doc = evaluate(&model, &name, floating_base, &file)
                .map_err(|e| format!("{}: {e}", states.display()))?;
            if options.frames.is_some() {
                let frames: Vec<String> = rbdgen_symbolic::module_frames(&model, &options)
                    .into_iter()
                    .map(|(_, name)| name)
                    .collect();
                keep_frames(&mut doc, &frames);
            }
            doc
        }
        Backend::Generated => {
            let functions = if functions.is_empty() {
                None
            } else {
                Some(
                    functions
                        .iter()
                        .map(|n| {
                            let n = n.trim();
                            Function::from_name(n).ok_or_else(|| {
                                let known: Vec<Function> = eval_functions().into_iter().collect();
                                let e = rbdgen_symbolic::unknown_function(n, &known);
                                format!("--functions: {e}")
                            })
                        })
                        .collect::<Result<_, _>>()?,
                )
            };
            let dir = work_dir.unwrap_or_else(|| std::env::temp_dir().join("rbdgen-eval"));
            let dir = dir.join(format!(
                "{}_{}",
                sanitize(
                    urdf.file_stem()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .as_ref()
                ),
                if floating_base { "floating" } else { "fixed" }
            ));
            let target_dir = target_dir.as_deref();
            evaluate_generated(
                &text,
                &options,
                &file,
                functions.as_ref(),
                &dir,
                target_dir,
                |m| {
                    if !quiet {
                        eprintln!("{m}");
                    }
                },
            )
            .map_err(|e| format!("{}: {e}", states.display()))?
        }
    };
    for (k, names) in nonfinite(&doc) {
        eprintln!(
            "rbdgen: warning: {}: state {k}: not finite, written as null: {}",
            states.display(),
            names.join(", ")
        );
    }
    let text = format!("{doc}\n");
    match out {
        Some(path) => std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display())),
        None => {
            out!("{text}");
            Ok(())
        }
    }
}

/// For each state with a `null` (a value that is not finite) in its results,
/// its index and the quantities holding one (`aba`, `frames.FL_foot.placement`).
fn nonfinite(doc: &serde_json::Value) -> Vec<(usize, Vec<String>)> {
    use serde_json::Value;
    fn has_null(v: &Value) -> bool {
        match v {
            Value::Null => true,
            Value::Array(a) => a.iter().any(has_null),
            Value::Object(o) => o.values().any(has_null),
            _ => false,
        }
    }
    let states = doc["states"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut out = Vec::new();
    for (k, state) in states.iter().enumerate() {
        let mut names = Vec::new();
        for (key, value) in state.as_object().into_iter().flatten() {
            match (key.as_str(), value) {
                ("frames", Value::Object(frames)) => {
                    for (frame, quantities) in frames {
                        for (q, v) in quantities.as_object().into_iter().flatten() {
                            if has_null(v) {
                                names.push(format!("frames.{frame}.{q}"));
                            }
                        }
                    }
                }
                (_, v) if has_null(v) => names.push(key.clone()),
                _ => {}
            }
        }
        if !names.is_empty() {
            out.push((k, names));
        }
    }
    out
}

/// A warning for each state's quaternion (a free-flyer's or a ball joint's
/// `[qx qy qz qw]` in `q`) whose norm is not 1 to 1e-6: every function reads
/// it as given (Pinocchio's too, whose results assume a unit quaternion), so
/// a zero or scaled one gives numbers that no rotation has.
fn quaternion_warnings(model: &rbdgen_runtime::Model, file: &StatesFile) -> Vec<String> {
    use rbdgen_runtime::JointKind;
    let mut out = Vec::new();
    for (k, state) in file.states.iter().enumerate() {
        for joint in &model.joints {
            let start = match joint.kind {
                JointKind::FreeFlyer => joint.idx_q + 3,
                JointKind::Spherical => joint.idx_q,
                _ => continue,
            };
            let Some(x) = state.q.get(start..start + 4) else {
                continue;
            };
            let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
            if (norm - 1.0).abs() > 1e-6 {
                out.push(format!(
                    "states[{k}].q[{start}..{}]: the quaternion of joint `{}` has norm {norm:e}, \
                     not 1; the functions read it as given",
                    start + 4,
                    joint.name
                ));
            }
        }
    }
    out
}
