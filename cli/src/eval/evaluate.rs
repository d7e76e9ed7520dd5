//! The quantities of a state computed by the runtime: each function of
//! [`PARTS`] evaluated on `f64` at the state's inputs and shaped as the
//! format's JSON.

use rbdgen_runtime::{forward_kinematics, Data, Model};
use rbdgen_symbolic::{Dim, Function, Output};
use serde_json::{Map, Value};

use super::file::vector;
use super::{functions, EvalError, Header, State, StatesFile, OMI, PARTS};

/// Why `function` cannot be evaluated at `state` for `model`: a contact
/// function without a contact set, a `*_fext` function without `fext`.
pub fn unavailable(function: Function, model: &Model, state: &State) -> Option<&'static str> {
    if function.needs_contacts() && model.contacts.is_empty() {
        return Some("needs a contact set (`contacts` in the file's header, or --contacts)");
    }
    let wrenches = function
        .spec()
        .args
        .iter()
        .any(|(_, d)| *d == Dim::Wrenches);
    (wrenches && state.fext.is_none()).then_some("needs `fext` in every state")
}

/// The state input that feeds argument `arg` of `function`: the input of
/// the same name, but `w` for the `v` of `integrate` and `d_integrate_*`,
/// `q` and `q2` for the `q0` and `q1` of `difference` and `d_difference_*`.
fn state_input(function: Function, arg: &str) -> &str {
    match (function, arg) {
        (Function::Integrate | Function::DIntegrateDq | Function::DIntegrateDv, "v") => "w",
        (Function::Difference | Function::DDifferenceDq0 | Function::DDifferenceDq1, "q0") => "q",
        (Function::Difference | Function::DDifferenceDq0 | Function::DDifferenceDq1, "q1") => "q2",
        _ => arg,
    }
}

/// The arguments of `function` ([`rbdgen_symbolic::Spec::args`], without
/// run-time parameters) at `state`, one `Vec` each: the state's inputs of
/// the same name (but `w` for the `v` of `integrate` and `d_integrate_*`,
/// `q` and `q2` for the `q0` and `q1` of `difference` and `d_difference_*`),
/// its `fext` flattened, zero `damping` (rigid contacts) and zero
/// `restitution` (a plastic impact), as the format defines them.
/// `function` must be one of [`PARTS`] and available at `state`
/// ([`unavailable`]).
///
/// # Panics
/// For an argument that is no state input (a function outside [`PARTS`]).
pub fn arguments(function: Function, state: &State) -> Vec<Vec<f64>> {
    let inputs = state.inputs();
    function
        .spec()
        .args
        .iter()
        .map(|&(arg, _)| match arg {
            "fext" => state.fext.iter().flatten().flatten().copied().collect(),
            "damping" | "restitution" => vec![0.0],
            _ => {
                let name = state_input(function, arg);
                let (_, values) = inputs
                    .iter()
                    .find(|(n, _)| *n == name)
                    .expect("every argument of a function of PARTS is a state input");
                values.to_vec()
            }
        })
        .collect()
}

/// The runtime's outputs of `function` at `state` ([`Function::evaluate`] on
/// `f64`, the URDF's inertias): one flat output per link frame of `frames`
/// for a per-frame function, one otherwise; `None` when the function is
/// [`unavailable`].
pub fn runtime_outputs(
    function: Function,
    model: &Model,
    data: &mut Data<f64>,
    state: &State,
    frames: &[usize],
) -> Option<Vec<Vec<f64>>> {
    if unavailable(function, model, state).is_some() {
        return None;
    }
    let args = arguments(function, state);
    let frames: Vec<Option<usize>> = if function.spec().per_frame {
        frames.iter().map(|&f| Some(f)).collect()
    } else {
        vec![None]
    };
    Some(
        frames
            .into_iter()
            // The state's lengths are checked against `model` (`State::check_lengths`).
            .map(|frame| {
                function
                    .evaluate(model, data, &args, frame)
                    .expect("arguments sized for the model")
            })
            .collect(),
    )
}

/// The quantities of one state from the outputs of the functions of
/// [`PARTS`]: `outputs(function)` gives one flat output per link frame of
/// `frames` (`(index, name)`) for a per-frame function, one otherwise, or
/// `None` to leave its quantities out. Every function is asked once, in
/// table order.
pub fn quantities_of(
    model: &Model,
    frames: &[(usize, String)],
    mut outputs: impl FnMut(Function) -> Option<Vec<Vec<f64>>>,
) -> Map<String, Value> {
    let mut out = Map::new();
    for function in functions() {
        let Some(values) = outputs(function) else {
            continue;
        };
        let spec = function.spec();
        for p in PARTS.iter().filter(|p| p.function == function) {
            let value = out
                .entry(p.quantity.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            if spec.per_frame {
                let key = p.key.expect("a per-frame part names its entry");
                for ((_, name), x) in frames.iter().zip(&values) {
                    let frame = object(value)
                        .entry(name.clone())
                        .or_insert_with(|| Value::Object(Map::new()));
                    let shaped = member(model, spec.output, p.element, x);
                    match p.sub {
                        Some(sub) => {
                            let entry = object(frame)
                                .entry(key.to_string())
                                .or_insert_with(|| Value::Object(Map::new()));
                            object(entry).insert(sub.to_string(), shaped);
                        }
                        None => {
                            object(frame).insert(key.to_string(), shaped);
                        }
                    }
                }
                continue;
            }
            let shaped = member(model, spec.output, p.element, &values[0]);
            match p.key {
                Some(key) => {
                    object(value).insert(key.to_string(), shaped);
                }
                None => *value = shaped,
            }
        }
    }
    out
}

/// Member `element` of a flat output (the whole output when it is not a
/// tuple) as JSON of its shape.
fn member(model: &Model, output: Output, element: usize, x: &[f64]) -> Value {
    match output {
        Output::Tuple(members) => {
            let offset: usize = members[..element].iter().map(|m| m.len(model)).sum();
            let m = members[element];
            shaped(model, m, &x[offset..offset + m.len(model)])
        }
        other => shaped(model, other, &x[..other.len(model)]),
    }
}

/// A flat output as JSON of its shape: a number, a vector, or a matrix as an
/// array of rows.
fn shaped(model: &Model, output: Output, x: &[f64]) -> Value {
    match output {
        Output::Scalar => Value::from(x[0]),
        Output::Vector(_) | Output::Tuple(_) => vector(x),
        Output::Matrix(rows, cols) => {
            let cols = cols.len(model);
            Value::Array(
                (0..rows.len(model))
                    .map(|r| vector(&x[r * cols..(r + 1) * cols]))
                    .collect(),
            )
        }
    }
}

/// `value` as an object (made one when it is not).
fn object(value: &mut Value) -> &mut Map<String, Value> {
    if !value.is_object() {
        *value = Value::Object(Map::new());
    }
    value.as_object_mut().expect("just made an object")
}

/// `omi`: `world_from_joint` (Pinocchio's `data.oMi`) of the joints 1 .. njoints-1
/// as 4 x 4 homogeneous matrices, a key of the reference files beside the spec's.
pub fn omi(model: &Model, data: &mut Data<f64>, state: &State) -> Value {
    // A state's q is checked against `model` when it is read (`State::check_lengths`).
    forward_kinematics(model, data, &state.q).expect("q sized for the model");
    Value::Array(
        data.o_mi[1..]
            .iter()
            .map(|t| homogeneous(&t.to_homogeneous()))
            .collect(),
    )
}

fn homogeneous(m: &[[f64; 4]; 4]) -> Value {
    Value::Array(m.iter().map(|row| vector(row)).collect())
}

/// The model that the states of `file` are states of: `model` (loaded from
/// the file's URDF) with the header's armature and contact set applied
/// ([`Header::apply_to`]), after checking the header and the inputs of every
/// state against it; and the header of the result, the output's.
///
/// # Errors
/// [`EvalError::ModelMismatch`] when the file's header describes another
/// model (base, nq, nv, joint or frame names) or another armature or contact
/// set than `model`'s own; [`EvalError::Format`] for a bad armature or
/// contact in the header; [`EvalError::Length`] for an input of the wrong
/// length.
pub fn prepare(
    model: &Model,
    urdf: &str,
    floating_base: bool,
    file: &StatesFile,
) -> Result<(Model, Header), EvalError> {
    Header::of(model, urdf, floating_base)
        .check_same_structure(&file.header)
        .map_err(EvalError::ModelMismatch)?;
    let mut model = model.clone();
    file.header.apply_to(&mut model)?;
    for (k, state) in file.states.iter().enumerate() {
        state.check_lengths(&model, k)?;
    }
    let header = Header::of(&model, urdf, floating_base);
    Ok((model, header))
}

/// Evaluates every state of `file` with the runtime: the document of the eval
/// format with the header of the model and, per state, the inputs and every
/// quantity of [`PARTS`] that applies, and [`OMI`].
///
/// `urdf` and `floating_base` are what `model` was loaded from; they go to the
/// header. The header's armature and contact set are applied to the model
/// ([`prepare`]) and written to the output's header.
///
/// # Errors
/// As [`prepare`].
pub fn evaluate(
    model: &Model,
    urdf: &str,
    floating_base: bool,
    file: &StatesFile,
) -> Result<Value, EvalError> {
    let (model, header) = prepare(model, urdf, floating_base, file)?;
    let mut data = Data::new(&model);
    let states: Vec<Value> = file
        .states
        .iter()
        .map(|state| Value::Object(evaluate_state(&model, &mut data, state)))
        .collect();
    Ok(serde_json::json!({ "model": header.to_json(), "states": states }))
}

/// The inputs, every quantity of [`PARTS`] that applies (by the runtime,
/// [`runtime_outputs`], on every link frame) and [`OMI`] at one state, whose
/// inputs must have the model's lengths ([`State::check_lengths`]).
pub fn evaluate_state(model: &Model, data: &mut Data<f64>, state: &State) -> Map<String, Value> {
    let frames: Vec<(usize, String)> = model
        .body_frames()
        .map(|(id, f)| (id, f.name.clone()))
        .collect();
    let ids: Vec<usize> = frames.iter().map(|(id, _)| *id).collect();
    let mut out = state.to_json();
    out.extend(quantities_of(model, &frames, |f| {
        runtime_outputs(f, model, data, state, &ids)
    }));
    out.insert(OMI.into(), omi(model, data, state));
    out
}

/// Keeps only the link frames named in `names` in the `frames` object of every
/// state of `doc` (a document of the format).
pub fn keep_frames(doc: &mut Value, names: &[String]) {
    let states = doc.get_mut("states").and_then(Value::as_array_mut);
    for state in states.into_iter().flatten() {
        if let Some(frames) = state.get_mut("frames").and_then(Value::as_object_mut) {
            frames.retain(|name, _| names.contains(name));
        }
    }
}
