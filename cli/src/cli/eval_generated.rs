//! `rbdgen eval --backend generated`: the quantities of the eval format
//! computed by the compiled generated code. The module for the URDF is
//! generated with the functions that have an eval counterpart ([`PARTS`]),
//! built in a crate of its own with the [`harness`] (as `rbdgen verify` does,
//! `cargo build --release`), and run on the states of the file; its outputs
//! are written in the same format as the runtime backend's.
//!
//! A quantity is computed by the runtime when no generated function covers it
//! (`omi`), or when the functions that cover it were left out with
//! `--functions`; a quantity made of several parts (the ten entries of each
//! link frame, `dintegrate.d0/d1`, `ddifference.d0/d1`) takes the parts that
//! the generated set covers from the generated code and the rest from the
//! runtime. The functions whose inputs the file lacks (the contact functions
//! without a contact set, the `*_fext` ones without `fext`) are left out, and
//! so are their quantities.
//!
//! The file header's armature and contacts are generation options: one
//! armature per joint (`Options::armature`), or one per dof (`JOINT[k]`) for
//! a joint whose dofs differ (a free-flyer's six, drawn independently by the
//! reference generator).
//!
//! [`harness`]: super::harness

use std::collections::BTreeSet;
use std::path::Path;

use rbdgen_cli::eval::{
    keep_frames, prepare, State, StatesFile, ABA_DERIVATIVES, QUANTITIES, RNEA_DERIVATIVES,
};
use rbdgen_runtime::link_parameters;
use rbdgen_runtime::{Data, Model};
use rbdgen_symbolic::{build_model, generate_module, Dim, Function, Options, Output};
use serde_json::{Map, Value};

use super::harness::Harness;
use super::selected_frames;

/// One entry of a quantity of the eval format that a generated function
/// computes: `quantity` (with `key` inside it, or inside each link frame for a
/// per-frame function) is `element` of the function's output (the tuple member
/// for a tuple output, 0 otherwise).
#[derive(Clone, Copy, Debug)]
pub struct Part {
    /// The key of the quantity in a state (`rnea`, `frames`, `dintegrate`, ...).
    pub quantity: &'static str,
    /// The entry inside the quantity (`d0`, `jacobian_local`, ...); `None` for
    /// the whole quantity.
    pub key: Option<&'static str>,
    /// The generated function.
    pub function: Function,
    /// Which member of a tuple output.
    pub element: usize,
}

const fn part(quantity: &'static str, function: Function) -> Part {
    Part {
        quantity,
        key: None,
        function,
        element: 0,
    }
}

const fn entry(quantity: &'static str, key: &'static str, function: Function) -> Part {
    Part {
        quantity,
        key: Some(key),
        function,
        element: 0,
    }
}

/// The generated counterpart of every quantity of the eval format that has
/// one. The arguments of a function are the state's inputs of the same name,
/// except `v` of `integrate` and `d_integrate_*` (the state's `w`) and `q0`,
/// `q1` of `difference` and `d_difference_*` (the state's `q`, `q2`).
pub const PARTS: &[Part] = &[
    part("rnea", Function::Rnea),
    part("nle", Function::NonlinearEffects),
    part("gravity", Function::GeneralizedGravity),
    part("crba", Function::Crba),
    part("aba", Function::Aba),
    part("minv", Function::Minverse),
    part("com", Function::CenterOfMass),
    part("jcom", Function::JacobianCenterOfMass),
    part("ag", Function::Ccrba),
    Part {
        element: 1,
        ..part("hg", Function::Ccrba)
    },
    part("dag", Function::Dccrba),
    part("kinetic_energy", Function::KineticEnergy),
    part("potential_energy", Function::PotentialEnergy),
    entry("frames", "placement", Function::FramePlacement),
    entry("frames", "jacobian_local", Function::FrameJacobianLocal),
    entry("frames", "jacobian_world", Function::FrameJacobianWorld),
    entry(
        "frames",
        "jacobian_local_world_aligned",
        Function::FrameJacobianLocalWorldAligned,
    ),
    entry(
        "frames",
        "jacobian_time_variation_local",
        Function::FrameJacobianTimeVariationLocal,
    ),
    entry(
        "frames",
        "jacobian_time_variation_world",
        Function::FrameJacobianTimeVariationWorld,
    ),
    entry(
        "frames",
        "jacobian_time_variation_local_world_aligned",
        Function::FrameJacobianTimeVariationLocalWorldAligned,
    ),
    entry(
        "frames",
        "acceleration_drift_local",
        Function::FrameAccelerationDrift,
    ),
    Part {
        element: 1,
        ..entry(
            "frames",
            "acceleration_drift_local_world_aligned",
            Function::FrameAccelerationDrift,
        )
    },
    Part {
        element: 2,
        ..entry(
            "frames",
            "classical_acceleration_drift_local_world_aligned",
            Function::FrameAccelerationDrift,
        )
    },
    part("rnea_derivatives", Function::RneaDerivatives),
    part("aba_derivatives", Function::AbaDerivatives),
    part("integrate", Function::Integrate),
    part("difference", Function::Difference),
    entry("dintegrate", "d0", Function::DIntegrateDq),
    entry("dintegrate", "d1", Function::DIntegrateDv),
    entry("ddifference", "d0", Function::DDifferenceDq0),
    entry("ddifference", "d1", Function::DDifferenceDq1),
    part("rnea_fext", Function::RneaFext),
    part("aba_fext", Function::AbaFext),
    part("aba_derivatives_fext", Function::AbaDerivativesFext),
    part("dhg", Function::CentroidalMomentumRate),
    part("regressor", Function::JointTorqueRegressor),
    part("contact_jacobian", Function::ContactJacobian),
    part("contact_drift", Function::ContactDrift),
    entry("contact_dynamics", "ddq", Function::ContactDynamics),
    Part {
        element: 1,
        ..entry("contact_dynamics", "lambda", Function::ContactDynamics)
    },
];

/// The names of the three matrices of a derivatives quantity, in the order of
/// the generated function's tuple.
fn derivative_names(quantity: &str) -> Option<[&'static str; 3]> {
    match quantity {
        "rnea_derivatives" => Some(RNEA_DERIVATIVES),
        "aba_derivatives" | "aba_derivatives_fext" => Some(ABA_DERIVATIVES),
        _ => None,
    }
}

/// Every generated function that computes part of a quantity, in table order.
pub fn eval_functions() -> BTreeSet<Function> {
    PARTS.iter().map(|p| p.function).collect()
}

/// The state input that feeds argument `arg` of `function`.
fn state_input(function: Function, arg: &str) -> &str {
    match (function, arg) {
        (Function::Integrate | Function::DIntegrateDq | Function::DIntegrateDv, "v") => "w",
        (Function::Difference | Function::DDifferenceDq0 | Function::DDifferenceDq1, "q0") => "q",
        (Function::Difference | Function::DDifferenceDq0 | Function::DDifferenceDq1, "q1") => "q2",
        _ => arg,
    }
}

/// Whether `function`'s arguments can be taken from every state of `file` for
/// `model`; the reason when not.
fn unavailable(function: Function, model: &Model, file: &StatesFile) -> Option<String> {
    if function.needs_contacts() && model.contacts.is_empty() {
        return Some("needs a contact set (`contacts` in the file's header, or --contacts)".into());
    }
    let wrenches = function
        .args(model)
        .iter()
        .any(|(_, d)| *d == Dim::Wrenches);
    if wrenches && file.states.iter().any(|s| s.fext.is_none()) {
        return Some("needs `fext` in every state".into());
    }
    None
}

/// The generation options that make `model` (the URDF's with `cli`'s and the
/// file header's settings) from the URDF: `cli`'s run-time parameters and
/// frames, the model's contact set, and its armature per joint (per dof,
/// `JOINT[k]`, where a joint's dofs differ).
///
/// # Errors
/// None today; kept for settings the generator cannot express.
fn generation_options(model: &Model, cli: &Options) -> Result<Options, String> {
    let mut armature = Vec::new();
    // A mimicking joint's entries are its primary's.
    for joint in model.joints[1..].iter().filter(|j| j.mimic.is_none()) {
        let values = &model.armature[joint.v_range()];
        let Some(&first) = values.first() else {
            continue;
        };
        if values.iter().any(|&a| a != first) {
            // Dof by dof: `JOINT[k]`.
            for (k, &a) in values.iter().enumerate() {
                armature.push((format!("{}[{k}]", joint.name), a));
            }
        } else if first != 0.0 {
            armature.push((joint.name.clone(), first));
        }
    }
    Ok(Options {
        armature,
        contacts: model
            .contacts
            .iter()
            .map(|c| (model.frames[c.frame].name.clone(), c.kind))
            .collect(),
        ..cli.clone()
    })
}

/// Every quantity of the format at the states of `file`, with the generated
/// code of `functions` (a subset of [`eval_functions`]; `None` for every one
/// whose inputs the file has) for the parts they cover and the runtime for
/// the rest.
///
/// `options` holds the URDF's name (`source_name`), the base, and the
/// command line's armature, contacts, run-time parameters and frames; the
/// file header's armature and contacts are applied on top
/// ([`rbdgen_cli::eval::prepare`]). The functions take the URDF's inertial
/// parameters as `pi` when there are run-time parameters; with `frames`, only
/// those link frames are in the output.
///
/// The crate that builds the code is written to and built in `dir` (an
/// earlier build there is reused when the code did not change). `note`
/// receives progress messages (the build) and the list of quantities computed
/// by the runtime.
///
/// # Errors
/// A message for a model that does not match the file's header, a bad
/// armature or contact, inputs of the wrong length, a function without an
/// eval counterpart or whose inputs the file lacks, an armature that differs
/// between the dofs of a joint, a URDF that does not make code, a missing
/// cargo, a failed build or run.
pub fn evaluate_generated(
    urdf_text: &str,
    options: &Options,
    file: &StatesFile,
    functions: Option<&BTreeSet<Function>>,
    dir: &Path,
    mut note: impl FnMut(&str),
) -> Result<Value, String> {
    let urdf = options.source_name.as_str();
    let cli_model = build_model(urdf_text, options).map_err(|e| format!("{urdf}: {e}"))?;
    let (model, header) =
        prepare(&cli_model, urdf, options.floating_base, file).map_err(|e| e.to_string())?;
    let known = eval_functions();
    let functions: BTreeSet<Function> = match functions {
        None => known
            .iter()
            .copied()
            .filter(|&f| unavailable(f, &model, file).is_none())
            .collect(),
        Some(set) => {
            if let Some(f) = set.iter().find(|f| !known.contains(f)) {
                return Err(format!(
                    "`{}` computes no quantity of the eval format; the functions that do: {}",
                    f.name(),
                    known
                        .iter()
                        .map(|f| f.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            for &f in set {
                if let Some(why) = unavailable(f, &model, file) {
                    return Err(format!("`{}` {why}", f.name()));
                }
            }
            set.clone()
        }
    };

    let options = Options {
        functions: functions.clone(),
        ..generation_options(&model, options)?
    };
    let generated_model = build_model(urdf_text, &options).map_err(|e| format!("{urdf}: {e}"))?;
    if generated_model.armature != model.armature || generated_model.contacts != model.contacts {
        return Err("internal error: the generation options do not make the file's model".into());
    }
    let source = generate_module(urdf_text, &options, |_| {})
        .and_then(|m| m.source())
        .map_err(|e| format!("{urdf}: {e}"))?;
    note(&format!(
        "building the generated code in {} (cargo build --release)",
        dir.display()
    ));
    let harness = Harness::build(dir, &source, &model, &options)?;
    let pi = link_parameters(&model);
    let inputs: Vec<Vec<Vec<f64>>> = harness
        .functions()
        .iter()
        .map(|&f| {
            file.states
                .iter()
                .map(|state| arguments(f, &model, state, &pi))
                .collect()
        })
        .collect();
    let runs = harness.run(&inputs, 0.0)?;
    let frames: Vec<String> = selected_frames(&model, &options)
        .into_iter()
        .map(|(_, name)| name)
        .collect();

    let mut runtime_only = Vec::new();
    let mut data = Data::new(&model);
    let states = file
        .states
        .iter()
        .enumerate()
        .map(|(s, state)| {
            let mut out = state.to_json();
            for quantity in QUANTITIES {
                let parts: Vec<&Part> = PARTS
                    .iter()
                    .filter(|p| p.quantity == quantity.name)
                    .collect();
                let covered: Vec<&Part> = parts
                    .iter()
                    .copied()
                    .filter(|p| functions.contains(&p.function))
                    .collect();
                let mut value = if !parts.is_empty() && covered.len() == parts.len() {
                    Value::Object(Map::new())
                } else {
                    match (quantity.compute)(&model, &mut data, state) {
                        Some(value) => {
                            if s == 0 {
                                runtime_only.push(quantity.name);
                            }
                            value
                        }
                        None if covered.is_empty() => continue,
                        None => Value::Object(Map::new()),
                    }
                };
                for p in covered {
                    let run = runs
                        .iter()
                        .find(|r| r.function == p.function)
                        .expect("the harness runs every function of the set");
                    insert(&model, &frames, &mut value, p, &run.outputs[s]);
                }
                out.insert(quantity.name.to_string(), value);
            }
            Value::Object(out)
        })
        .collect::<Vec<_>>();
    if !runtime_only.is_empty() {
        note(&format!(
            "computed by the runtime (no generated function in the set): {}",
            runtime_only.join(", ")
        ));
    }
    let mut doc = serde_json::json!({ "model": header.to_json(), "states": states });
    if options.frames.is_some() {
        keep_frames(&mut doc, &frames);
    }
    Ok(doc)
}

/// The arguments of `function` ([`Function::args`]) at `state`, concatenated:
/// the state's inputs of the same name ([`state_input`]), its `fext`
/// flattened, zero `damping` (rigid contacts), the URDF's inertial parameters
/// `pi` of the run-time parameter links.
fn arguments(function: Function, model: &Model, state: &State, pi: &[f64]) -> Vec<f64> {
    let inputs = state.inputs();
    function
        .args(model)
        .iter()
        .flat_map(|&(arg, _)| -> Vec<f64> {
            match arg {
                "fext" => state
                    .fext
                    .iter()
                    .flatten()
                    .flat_map(|w| w.iter().copied())
                    .collect(),
                "damping" => vec![0.0],
                "pi" => pi.to_vec(),
                _ => {
                    let name = state_input(function, arg);
                    let (_, values) = inputs
                        .iter()
                        .find(|(n, _)| *n == name)
                        .expect("every argument of an eval function is a state input");
                    values.to_vec()
                }
            }
        })
        .collect()
}

/// The member `element` of a flat output (the whole output when it is not a
/// tuple), with its shape.
fn member<'x>(model: &Model, output: Output, element: usize, x: &'x [f64]) -> (Output, &'x [f64]) {
    match output {
        Output::Tuple(members) => {
            let offset: usize = members[..element].iter().map(|m| m.len(model)).sum();
            let m = members[element];
            (m, &x[offset..offset + m.len(model)])
        }
        other => (other, &x[..other.len(model)]),
    }
}

/// Puts the generated outputs of part `p` (every link frame of `frames` in
/// turn for a per-frame function) into the quantity's `value`.
fn insert(model: &Model, frames: &[String], value: &mut Value, p: &Part, outputs: &[f64]) {
    let spec = p.function.spec();
    if spec.per_frame {
        let width = spec.output.len(model);
        for (name, chunk) in frames.iter().zip(outputs.chunks(width.max(1))) {
            let frame = object(value)
                .entry(name.clone())
                .or_insert_with(|| Value::Object(Map::new()));
            let key = p.key.expect("a per-frame part names its entry");
            let (output, x) = member(model, spec.output, p.element, chunk);
            object(frame).insert(key.to_string(), shaped(model, output, x));
        }
        return;
    }
    if let (Some(names), Output::Tuple(members)) = (derivative_names(p.quantity), spec.output) {
        let mut out = Map::new();
        let mut offset = 0;
        for (name, member) in names.into_iter().zip(members) {
            let n = member.len(model);
            out.insert(
                name.into(),
                shaped(model, *member, &outputs[offset..offset + n]),
            );
            offset += n;
        }
        *value = Value::Object(out);
        return;
    }
    let (output, x) = member(model, spec.output, p.element, outputs);
    let shaped = shaped(model, output, x);
    match p.key {
        Some(key) => {
            object(value).insert(key.to_string(), shaped);
        }
        None => *value = shaped,
    }
}

/// `value` as an object (made one when it is not).
fn object(value: &mut Value) -> &mut Map<String, Value> {
    if !value.is_object() {
        *value = Value::Object(Map::new());
    }
    value.as_object_mut().expect("just made an object")
}

/// A flat output as JSON of its shape: a number, a vector, or a matrix as an
/// array of rows.
fn shaped(model: &Model, output: Output, x: &[f64]) -> Value {
    match output {
        Output::Scalar => Value::from(x[0]),
        Output::Vector(_) | Output::Tuple(_) => Value::from(x.to_vec()),
        Output::Matrix(rows, cols) => {
            let cols = cols.len(model);
            Value::Array(
                (0..rows.len(model))
                    .map(|r| Value::from(x[r * cols..(r + 1) * cols].to_vec()))
                    .collect(),
            )
        }
    }
}
