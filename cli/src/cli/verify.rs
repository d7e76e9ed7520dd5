//! `rbdgen verify`: what a user runs before committing generated code. It
//! generates the module, builds it in a crate of its own (see [`harness`]),
//! runs it on random states, and compares every function with the runtime in
//! this process (the table's generic evaluation on `f64`,
//! [`Function::evaluate`]): the largest error, and the time per call of the
//! generated code and of the runtime. With `--lanes L` it also runs every
//! function's `lanes::NAME_batch` over all the states at once (their number
//! made not a multiple of `L`, so that both the lane groups and the scalar
//! tail run) and checks it against the runtime and against the scalar
//! generated code.
//!
//! [`harness`]: super::harness

use std::path::PathBuf;
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rbdgen_cli::check::relative_error;
use rbdgen_runtime::{
    forward_kinematics, frame_placement, link_parameters, spatial::exp3, ContactKind, Vector3,
};
use rbdgen_runtime::{Data, Model};
use rbdgen_symbolic::{Dim, Function, Options, ScalarType};

use super::harness::Harness;
use super::{CodeArgs, Failure};

/// The largest error accepted from `f32` code against the `f64` runtime, in
/// the spec's relative measure ([`relative_error`]); the README states the
/// measured values for Go2+Z1.
pub const F32_TOLERANCE: f64 = 1e-5;

/// The largest error accepted from `f64` code against the runtime.
pub const F64_TOLERANCE: f64 = 1e-10;

/// The largest difference accepted between a lane's results and the scalar
/// generated function's, in the same relative measure: the lanes perform the
/// same operations, but their sines and cosines are `wide`'s vectorised
/// polynomial (within one unit in the last place of `libm`'s), so the two
/// differ by a few units in the last place, which the derivatives' linear
/// solves amplify (2.6e-14 measured on Go2+Z1's `step_linearization`).
pub const LANES_TOLERANCE: f64 = 1e-13;

/// [`LANES_TOLERANCE`] for `f32` code (its unit in the last place is 1.2e-7).
pub const F32_LANES_TOLERANCE: f64 = 1e-5;

/// The lanes' tolerance for the scalar type of `options`.
fn lanes_tolerance(options: &Options) -> f64 {
    match options.scalar {
        ScalarType::F32 => F32_LANES_TOLERANCE,
        ScalarType::F64 => LANES_TOLERANCE,
    }
}

/// Arguments of `rbdgen verify`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    code: CodeArgs,
    /// Number of random states.
    #[arg(long, default_value_t = 100, allow_negative_numbers = true)]
    states: usize,
    /// Seed of the random states.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Seconds spent timing each function, for the generated code and for the runtime.
    #[arg(long, default_value_t = 0.3, allow_negative_numbers = true)]
    seconds: f64,
    /// Largest accepted error (1e-10 for f64 code, 1e-5 for f32 code by default).
    #[arg(long, allow_negative_numbers = true)]
    tolerance: Option<f64>,
    /// Directory of the crate that builds the generated code (kept between
    /// runs so that rebuilds are quick); `rbdgen-verify` in the system's
    /// temporary directory by default.
    #[arg(long)]
    work_dir: Option<PathBuf>,
    /// Cargo's target directory for that crate (`target/` inside it by
    /// default). One directory shared by several work directories builds the
    /// generated crates' dependencies (`libm`, `wide`, `rayon`) once.
    #[arg(long)]
    target_dir: Option<PathBuf>,
    /// No progress bar and no build messages on stderr.
    #[arg(long)]
    quiet: bool,
}

/// One function's verdict.
struct Row {
    function: Function,
    error: f64,
    generated_ns: f64,
    runtime_ns: f64,
    /// With lanes: the batch's error against the runtime, its largest
    /// difference from the scalar generated code, and its ns per state.
    lanes: Option<(f64, f64, f64)>,
}

/// Runs the subcommand.
///
/// # Errors
/// A [`Failure`] with code 1 when a function's error exceeds the tolerance, 2
/// for bad input, a missing cargo or a failed build.
pub fn run(args: Args) -> Result<(), Failure> {
    if args.states == 0 {
        return Err("--states 0: no state to compare the generated code on"
            .to_string()
            .into());
    }
    if let Some(t) = args.tolerance {
        if !(t.is_finite() && t >= 0.0) {
            return Err(format!("--tolerance {t}: must be a finite number, 0 or more").into());
        }
    }
    if !(args.seconds.is_finite() && args.seconds >= 0.0) {
        let seconds = args.seconds;
        return Err(format!("--seconds {seconds}: must be a finite number, 0 or more").into());
    }
    let (_, options, module) = args.code.generate(args.quiet)?;
    let source = module.source().map_err(|e| e.to_string())?;

    let model = module.model;
    let work = match &args.work_dir {
        Some(dir) => dir.clone(),
        None => std::env::temp_dir().join("rbdgen-verify"),
    };
    let dir = work.join(format!(
        "{}_{}",
        sanitize(&model.name),
        options.scalar.name()
    ));
    if !args.quiet {
        eprintln!(
            "building the generated code in {} (cargo build --release)",
            dir.display()
        );
    }
    let start = Instant::now();
    let harness = Harness::build(&dir, args.target_dir.as_deref(), &source, &model, &options)?;
    let build_seconds = start.elapsed().as_secs_f64();

    let nstates = lane_states(args.states, options.lanes);
    let states = random_states(&model, harness.functions(), nstates, args.seed);
    let inputs: Vec<Vec<Vec<f64>>> = states.iter().map(Calls::concatenated).collect();
    let runs = harness.run(&inputs, args.seconds)?;

    let mut data = Data::new(&model);
    let frames: Vec<usize> = module.frames.iter().map(|(id, _)| *id).collect();
    let mut rows = Vec::new();
    for (run, calls) in runs.iter().zip(&states) {
        let spec = run.function.spec();
        let frame_list: Vec<Option<usize>> = if spec.per_frame {
            frames.iter().map(|&f| Some(f)).collect()
        } else {
            vec![None]
        };
        let mut against_runtime = |outputs: &[Vec<f64>]| -> f64 {
            let mut error = 0.0f64;
            for (outputs, state) in outputs.iter().zip(&calls.states) {
                let chunk = outputs.len() / frame_list.len();
                for (ours, &frame) in outputs.chunks(chunk.max(1)).zip(&frame_list) {
                    // The states are drawn for `model`, `data` built for it.
                    let reference = run
                        .function
                        .evaluate(&model, &mut data, state, frame)
                        .expect("states drawn for the model");
                    error = error.max(relative_error(ours, &reference));
                }
            }
            error
        };
        let error = against_runtime(&run.outputs);
        let lanes = run.lanes.as_ref().map(|(outputs, ns)| {
            let vs_scalar = outputs
                .iter()
                .zip(&run.outputs)
                .fold(0.0f64, |m, (l, s)| m.max(relative_error(l, s)));
            (against_runtime(outputs), vs_scalar, *ns)
        });
        let runtime_ns = time_runtime(
            run.function,
            &model,
            &mut data,
            &calls.states,
            &frame_list,
            args.seconds,
        );
        rows.push(Row {
            function: run.function,
            error,
            generated_ns: run.ns_per_call,
            runtime_ns,
            lanes,
        });
    }

    let tolerance = args.tolerance.unwrap_or(match options.scalar {
        ScalarType::F64 => F64_TOLERANCE,
        ScalarType::F32 => F32_TOLERANCE,
    });
    print_report(&model, &options, &rows, nstates, build_seconds, tolerance);
    if cfg!(debug_assertions) {
        outln!("note: this rbdgen is a debug build, so the runtime timings are pessimistic");
    }
    let mut failed: Vec<String> = rows
        .iter()
        .filter(|r| r.error.is_nan() || r.error > tolerance)
        .map(|r| format!("{} ({:.1e})", r.function.name(), r.error))
        .collect();
    for row in rows.iter() {
        if let Some((error, vs_scalar, _)) = row.lanes {
            if error.is_nan() || error > tolerance {
                failed.push(format!(
                    "lanes::{}_batch ({error:.1e})",
                    row.function.name()
                ));
            }
            if vs_scalar.is_nan() || vs_scalar > lanes_tolerance(&options) {
                failed.push(format!(
                    "lanes::{}_batch against the scalar code ({vs_scalar:.1e} > {:.0e})",
                    row.function.name(),
                    lanes_tolerance(&options)
                ));
            }
        }
    }
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Failure::check(format!(
            "{}: error above {tolerance:.0e} in {}",
            args.code.urdf.display(),
            failed.join(", ")
        )))
    }
}

/// The number of random states for `requested` and the lane count: as
/// requested without lanes; with `L` lanes at least `L + 1` and not a
/// multiple of `L` (one more state when it is), so that the batch runs full
/// lane groups and a scalar tail.
fn lane_states(requested: usize, lanes: Option<usize>) -> usize {
    match lanes {
        Some(l) if l > 0 => {
            let n = requested.max(l + 1);
            if n % l == 0 {
                n + 1
            } else {
                n
            }
        }
        _ => requested,
    }
}

/// The random calls of one function: its arguments at each state.
struct Calls {
    /// `states[s][k]`: argument `k` ([`Function::args`]) at state `s`.
    states: Vec<Vec<Vec<f64>>>,
}

impl Calls {
    /// Each state's arguments one after the other, as the harness reads them.
    fn concatenated(&self) -> Vec<Vec<f64>> {
        self.states.iter().map(|args| args.concat()).collect()
    }
}

/// For each function of `functions`, for each of `n` states, its arguments
/// ([`Function::args`]): random configurations for `NQ`-long arguments, the
/// URDF's inertial parameters of the links of `model.parameters` each scaled
/// by a random factor in `[0.5, 2)` (still physical) for `pi`, contact forces
/// that push the robot up for `lambda` ([`random_contact_forces`]), numbers
/// uniform in `[-1, 1)` for the others. Arguments of the same name share
/// values within a state.
fn random_states(model: &Model, functions: &[Function], n: usize, seed: u64) -> Vec<Calls> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut names: Vec<(&str, Dim)> = Vec::new();
    for f in functions {
        for (name, dim) in f.args(model) {
            if !names.iter().any(|(n, d)| *n == name && *d == dim) {
                names.push((name, dim));
            }
        }
    }
    let urdf_parameters = link_parameters(model);
    let mut data = Data::new(model);
    let shared: Vec<Vec<Vec<f64>>> = (0..n)
        .map(|_| {
            let mut values: Vec<Vec<f64>> = Vec::with_capacity(names.len());
            for &(_, dim) in &names {
                let value = match dim {
                    Dim::Nq => model.random_configuration(|| rng.gen::<f64>()),
                    Dim::Placement => random_placement(&mut rng),
                    Dim::Scalar => vec![rng.gen_range(1e-3..5e-2)],
                    Dim::Parameters => urdf_parameters
                        .chunks(10)
                        .flat_map(|link| {
                            let scale = rng.gen_range(0.5..2.0);
                            link.iter().map(move |p| p * scale)
                        })
                        .collect(),
                    Dim::Contacts => {
                        // The forces at the contact functions' `q`, named before them.
                        let q = names
                            .iter()
                            .position(|&(n, d)| n == "q" && d == Dim::Nq)
                            .and_then(|k| values.get(k))
                            .cloned()
                            .unwrap_or_else(|| model.neutral());
                        random_contact_forces(model, &mut data, &q, &mut rng)
                    }
                    _ => (0..dim.len(model))
                        .map(|_| rng.gen_range(-1.0..1.0))
                        .collect(),
                };
                values.push(value);
            }
            values
        })
        .collect();
    functions
        .iter()
        .map(|f| Calls {
            states: shared
                .iter()
                .map(|values| {
                    f.args(model)
                        .iter()
                        .map(|&(name, dim)| {
                            let k = names
                                .iter()
                                .position(|&(n, d)| n == name && d == dim)
                                .expect("every argument is named");
                            values[k].clone()
                        })
                        .collect()
                })
                .collect(),
        })
        .collect()
}

/// Random forces on the contacts of `model` at `q`, in the layout of
/// `contact_dynamics`'s λ: per contact a world force of about `(0, 0, 2)`
/// (uniform in `[-1, 1)` each way), in world axes for a point contact, in
/// the frame's axes for a 6-D one with a moment uniform in `[-1, 1)³`. The
/// total vertical force is at least one per contact, so that the centre of
/// pressure is well defined.
fn random_contact_forces(
    model: &Model,
    data: &mut Data<f64>,
    q: &[f64],
    rng: &mut ChaCha8Rng,
) -> Vec<f64> {
    // `q` is drawn for `model`, and contact frames are the model's own.
    forward_kinematics(model, data, q).expect("q drawn for the model");
    let mut out = Vec::with_capacity(model.nc());
    for contact in &model.contacts {
        let force = [
            rng.gen_range(-1.0..1.0),
            rng.gen_range(-1.0..1.0),
            2.0 + rng.gen_range(-1.0..1.0),
        ];
        match contact.kind {
            ContactKind::Point => out.extend(force),
            ContactKind::Frame6d => {
                let r = frame_placement(model, data, contact.frame)
                    .expect("a frame of the model")
                    .rotation
                    .0;
                // Rᵀ f: the world force in the frame's axes.
                out.extend((0..3).map(|i| (0..3).map(|k| r[k][i] * force[k]).sum::<f64>()));
                out.extend((0..3).map(|_| rng.gen_range(-1.0..1.0)));
            }
        }
    }
    out
}

/// A random placement as a row-major 4 x 4 homogeneous matrix: a rotation
/// `exp3(ω)`, `ω`, and a translation in `[-1, 1)³`.
fn random_placement(rng: &mut ChaCha8Rng) -> Vec<f64> {
    let omega = Vector3([(); 3].map(|_| rng.gen_range(-2.0..2.0)));
    let r = exp3(&omega).0;
    let p: [f64; 3] = [(); 3].map(|_| rng.gen_range(-1.0..1.0));
    let mut out = Vec::with_capacity(16);
    for i in 0..3 {
        out.extend_from_slice(&r[i]);
        out.push(p[i]);
    }
    out.extend_from_slice(&[0.0, 0.0, 0.0, 1.0]);
    out
}

/// Mean nanoseconds per runtime call of `function` ([`Function::evaluate`]
/// on `f64`) over the states (one frame per call), repeated for about
/// `seconds`.
fn time_runtime(
    function: Function,
    model: &Model,
    data: &mut Data<f64>,
    states: &[Vec<Vec<f64>>],
    frames: &[Option<usize>],
    seconds: f64,
) -> f64 {
    let start = Instant::now();
    let mut calls = 0u64;
    loop {
        for state in states {
            for &frame in frames {
                // The states are drawn for `model`, `data` built for it.
                let out = function.evaluate(model, data, state, frame);
                std::hint::black_box(out.expect("states drawn for the model"));
                calls += 1;
            }
        }
        if calls == 0 || start.elapsed().as_secs_f64() >= seconds {
            break;
        }
    }
    start.elapsed().as_nanos() as f64 / calls.max(1) as f64
}

fn print_report(
    model: &Model,
    options: &Options,
    rows: &[Row],
    nstates: usize,
    build_seconds: f64,
    tolerance: f64,
) {
    outln!(
        "{} (nq = {}, nv = {}, {} code): {nstates} random states, generated code built in {build_seconds:.1} s",
        model.name,
        model.nq,
        model.nv,
        options.scalar.name()
    );
    let w = rows
        .iter()
        .map(|r| r.function.name().len())
        .max()
        .unwrap_or(0)
        .max(18);
    let with_lanes = rows.iter().any(|r| r.lanes.is_some());
    let lane_header = if with_lanes {
        format!(
            " {:>12} {:>12} {:>16} {:>12}",
            "lanes error", "lanes-scalar", "lanes (ns/state)", "scalar/lanes"
        )
    } else {
        String::new()
    };
    outln!(
        "{:<w$} {:>10} {:>14} {:>12} {:>9}{lane_header}",
        "function",
        "max error",
        "generated (ns)",
        "runtime (ns)",
        "speed-up"
    );
    for row in rows {
        let ns = row.runtime_ns;
        let (runtime, speedup) = (
            format!("{ns:.0}"),
            format!("{:.1}x", ns / row.generated_ns.max(1e-3)),
        );
        let lanes_ok = row
            .lanes
            .is_none_or(|(e, d, _)| e <= tolerance && d <= lanes_tolerance(options));
        let verdict = if row.error <= tolerance && lanes_ok {
            ""
        } else {
            "  FAILED"
        };
        let lanes = match row.lanes {
            Some((error, vs_scalar, ns)) => format!(
                " {error:>12.1e} {vs_scalar:>12.1e} {ns:>16.1} {:>11.2}x",
                row.generated_ns / ns.max(1e-3)
            ),
            None => String::new(),
        };
        outln!(
            "{:<w$} {:>10.1e} {:>14.1} {:>12} {:>9}{lanes}{verdict}",
            row.function.name(),
            row.error,
            row.generated_ns,
            runtime,
            speedup
        );
    }
    if let Some(l) = options.lanes {
        outln!(
            "lanes: lanes::NAME_batch over all {nstates} states ({} groups of {l}, {} through the \
             scalar tail); lanes-scalar: largest difference from the scalar generated code \
             (tolerance {:.0e})",
            nstates / l,
            nstates % l,
            lanes_tolerance(options)
        );
    }
    outln!("tolerance {tolerance:.0e} (|ours - runtime| / max(1, max |runtime|) per state)");
}

/// `name` with every character other than an ASCII letter or digit made `_`.
pub(super) fn sanitize(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}
