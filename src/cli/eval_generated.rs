//! `rbdgen eval --backend generated`: the quantities of the eval format
//! computed by the compiled generated code. The module for the URDF is
//! generated with the functions that have an eval counterpart ([`PARTS`]),
//! built in a crate of its own with the [`harness`] (as `rbdgen verify` does,
//! `cargo build --release`), and run on the states of the file; its outputs
//! are written in the same format as the runtime backend's.
//!
//! A quantity is computed by the runtime when no generated function covers it
//! (`omi`), or when the functions that cover it were left out with
//! `--functions`; a quantity made of several parts (the four entries of each
//! link frame, `dintegrate.d0/d1`, `ddifference.d0/d1`) takes the parts that
//! the generated set covers from the generated code and the rest from the
//! runtime.
//!
//! [`harness`]: super::harness

use std::collections::BTreeSet;
use std::path::Path;

use rbdgen::eval::{Header, StatesFile, QUANTITIES};
use rbdgen::symbolic::{generate_module, Function, Options, Output};
use rbdgen::{Data, Model};
use serde_json::{Map, Value};

use super::harness::Harness;

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
    part("rnea_derivatives", Function::RneaDerivatives),
    part("aba_derivatives", Function::AbaDerivatives),
    part("integrate", Function::Integrate),
    part("difference", Function::Difference),
    entry("dintegrate", "d0", Function::DIntegrateDq),
    entry("dintegrate", "d1", Function::DIntegrateDv),
    entry("ddifference", "d0", Function::DDifferenceDq0),
    entry("ddifference", "d1", Function::DDifferenceDq1),
];

/// The names of the three matrices of a derivatives quantity, in the order of
/// the generated function's tuple.
fn derivative_names(quantity: &str) -> Option<[&'static str; 3]> {
    match quantity {
        "rnea_derivatives" => Some(["dtau_dq", "dtau_dv", "dtau_da"]),
        "aba_derivatives" => Some(["ddq_dq", "ddq_dv", "ddq_dtau"]),
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

/// Every quantity of the format at the states of `file`, with the generated
/// code of `functions` (a subset of [`eval_functions`]) for the parts they
/// cover and the runtime for the rest.
///
/// The crate that builds the code is written to and built in `dir` (an
/// earlier build there is reused when the code did not change). `note`
/// receives progress messages (the build) and the list of quantities computed
/// by the runtime.
///
/// # Errors
/// A message for a model that does not match the file's header, inputs of the
/// wrong length, a function without an eval counterpart, a URDF that does not
/// make code, a missing cargo, a failed build or run.
pub fn evaluate_generated(
    urdf_text: &str,
    urdf: &str,
    floating_base: bool,
    file: &StatesFile,
    functions: &BTreeSet<Function>,
    dir: &Path,
    mut note: impl FnMut(&str),
) -> Result<Value, String> {
    let model =
        Model::from_urdf_str(urdf_text, floating_base).map_err(|e| format!("{urdf}: {e}"))?;
    let header = Header::of(&model, urdf, floating_base);
    header
        .check_same_model(&file.header)
        .map_err(|e| format!("the model does not match the file's header: {e}"))?;
    for (k, state) in file.states.iter().enumerate() {
        state.check_lengths(&model, k).map_err(|e| e.to_string())?;
    }
    let known = eval_functions();
    if let Some(f) = functions.iter().find(|f| !known.contains(f)) {
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

    let options = Options {
        floating_base,
        functions: functions.clone(),
        source_name: urdf.to_string(),
        ..Options::default()
    };
    let source = generate_module(urdf_text, &options, |_| {})
        .and_then(|m| m.source())
        .map_err(|e| format!("{urdf}: {e}"))?;
    note(&format!(
        "building the generated code in {} (cargo build --release)",
        dir.display()
    ));
    let harness = Harness::build(dir, &source, &model, &options)?;
    let inputs: Vec<Vec<Vec<f64>>> = options
        .functions
        .iter()
        .map(|&f| {
            file.states
                .iter()
                .map(|state| {
                    let inputs = state.inputs();
                    f.spec()
                        .args
                        .iter()
                        .flat_map(|(arg, _)| {
                            let name = state_input(f, arg);
                            let (_, values) = inputs
                                .iter()
                                .find(|(n, _)| *n == name)
                                .expect("every argument of an eval function is a state input");
                            values.iter().copied()
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    let runs = harness.run(&inputs, 0.0)?;

    let mut runtime_only = Vec::new();
    let mut data = Data::new(&model);
    let states = file
        .states
        .iter()
        .enumerate()
        .map(|(s, state)| {
            let mut out: Map<String, Value> = state
                .inputs()
                .iter()
                .map(|(name, x)| (name.to_string(), Value::from(x.to_vec())))
                .collect();
            for quantity in QUANTITIES {
                let parts: Vec<&Part> = PARTS
                    .iter()
                    .filter(|p| p.quantity == quantity.name)
                    .collect();
                let covered = parts.iter().filter(|p| functions.contains(&p.function));
                let mut value = if !parts.is_empty() && covered.clone().count() == parts.len() {
                    Value::Object(Map::new())
                } else {
                    if s == 0 {
                        runtime_only.push(quantity.name);
                    }
                    (quantity.compute)(&model, &mut data, state)
                };
                for p in covered {
                    let run = runs
                        .iter()
                        .find(|r| r.function == p.function)
                        .expect("the harness runs every function of the set");
                    insert(&model, &mut value, p, &run.outputs[s]);
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
    Ok(serde_json::json!({ "model": header.to_json(), "states": states }))
}

/// Puts the generated outputs of part `p` (every link frame in turn for a
/// per-frame function) into the quantity's `value`.
fn insert(model: &Model, value: &mut Value, p: &Part, outputs: &[f64]) {
    let spec = p.function.spec();
    if spec.per_frame {
        let frames: Vec<String> = model.body_frames().map(|(_, f)| f.name.clone()).collect();
        let width = spec.output.len(model);
        for (name, chunk) in frames.iter().zip(outputs.chunks(width.max(1))) {
            let frame = object(value)
                .entry(name.clone())
                .or_insert_with(|| Value::Object(Map::new()));
            let key = p.key.expect("a per-frame part names its entry");
            object(frame).insert(key.to_string(), shaped(model, spec.output, chunk));
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
    let (output, offset) = match spec.output {
        Output::Tuple(members) => {
            let offset = members[..p.element].iter().map(|m| m.len(model)).sum();
            (members[p.element], offset)
        }
        other => (other, 0),
    };
    let x = &outputs[offset..offset + output.len(model)];
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
