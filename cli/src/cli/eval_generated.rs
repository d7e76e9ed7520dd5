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
//! runtime (the same functions' generic evaluation on `f64`). The functions whose inputs the file lacks (the contact functions
//! without a contact set, the `*_fext` ones without `fext`) are left out, and
//! so are their quantities.
//!
//! The file header's armature and contacts are generation options: one
//! armature per joint (`Options::armature`), or one per dof (`JOINT[k]`) for
//! a joint whose dofs differ (a free-flyer's six, drawn independently by the
//! reference generator).
//!
//! [`harness`]: super::harness
//! [`PARTS`]: rbdgen_cli::eval::PARTS

use std::collections::BTreeSet;
use std::path::Path;

use rbdgen_cli::eval::{
    arguments, keep_frames, omi, prepare, quantities_of, runtime_outputs, unavailable, StatesFile,
    OMI, OUTSIDE_FORMAT, PARTS,
};
use rbdgen_runtime::link_parameters;
use rbdgen_runtime::{Data, Model};
use rbdgen_symbolic::{build_model, generate_module, Function, Options};
use serde_json::Value;

use super::harness::Harness;

/// Every generated function that computes part of a quantity, in table order.
pub fn eval_functions() -> BTreeSet<Function> {
    PARTS.iter().map(|p| p.function).collect()
}

/// Why `function`'s arguments cannot be taken from every state of `file`
/// for `model`.
fn unavailable_in(function: Function, model: &Model, file: &StatesFile) -> Option<&'static str> {
    file.states
        .iter()
        .find_map(|s| unavailable(function, model, s))
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
/// earlier build there is reused when the code did not change), with Cargo's
/// target directory `target_dir` (`dir/target` when `None`). `note`
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
    target_dir: Option<&Path>,
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
            .filter(|&f| unavailable_in(f, &model, file).is_none())
            .collect(),
        Some(set) => {
            if let Some(f) = set.iter().find(|f| !known.contains(f)) {
                let why = OUTSIDE_FORMAT
                    .iter()
                    .find(|(g, _)| g == f)
                    .map_or("", |(_, why)| why);
                return Err(format!(
                    "`{}` computes no quantity of the eval format ({why}); the functions that do: {}",
                    f.name(),
                    known
                        .iter()
                        .map(|f| f.name())
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            for &f in set {
                if let Some(why) = unavailable_in(f, &model, file) {
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
    let harness = Harness::build(dir, target_dir, &source, &model, &options)?;
    let pi = link_parameters(&model);
    let inputs: Vec<Vec<Vec<f64>>> = harness
        .functions()
        .iter()
        .map(|&f| {
            let with_pi = f.args(&model).len() > f.spec().args.len();
            file.states
                .iter()
                .map(|state| {
                    let mut x = arguments(f, state).concat();
                    if with_pi {
                        x.extend_from_slice(&pi);
                    }
                    x
                })
                .collect()
        })
        .collect();
    let runs = harness.run(&inputs, 0.0)?;
    let frames = rbdgen_symbolic::module_frames(&model, &options);
    let ids: Vec<usize> = frames.iter().map(|(id, _)| *id).collect();

    let mut by_runtime = BTreeSet::new();
    let mut data = Data::new(&model);
    let states = file
        .states
        .iter()
        .enumerate()
        .map(|(s, state)| {
            let mut out = state.to_json();
            out.extend(quantities_of(&model, &frames, |f| {
                if let Some(run) = runs.iter().find(|r| r.function == f) {
                    let x = &run.outputs[s];
                    let width = x.len() / if f.spec().per_frame { ids.len() } else { 1 };
                    return Some(x.chunks(width.max(1)).map(<[f64]>::to_vec).collect());
                }
                let values = runtime_outputs(f, &model, &mut data, state, &ids)?;
                by_runtime.insert(f);
                Some(values)
            }));
            out.insert(OMI.into(), omi(&model, &mut data, state));
            Value::Object(out)
        })
        .collect::<Vec<_>>();
    // A quantity made of several functions (`frames`) that the set covers in
    // part names the functions the runtime computed.
    let mut quantities: Vec<&str> = Vec::new();
    for p in PARTS.iter().filter(|p| by_runtime.contains(&p.function)) {
        if !quantities.contains(&p.quantity) {
            quantities.push(p.quantity);
        }
    }
    let mut runtime_only: Vec<String> = Vec::new();
    for quantity in quantities {
        let mut functions: Vec<&str> = Vec::new();
        let mut generated = false;
        for p in PARTS.iter().filter(|p| p.quantity == quantity) {
            if !by_runtime.contains(&p.function) {
                generated = true;
            } else if !functions.contains(&p.function.name()) {
                functions.push(p.function.name());
            }
        }
        runtime_only.push(if generated {
            format!("{quantity} ({})", functions.join(", "))
        } else {
            quantity.to_string()
        });
    }
    runtime_only.push(OMI.to_string());
    note(&format!(
        "computed by the runtime (no generated function in the set): {}",
        runtime_only.join(", ")
    ));
    let mut doc = serde_json::json!({ "model": header.to_json(), "states": states });
    if options.frames.is_some() {
        let names: Vec<String> = frames.into_iter().map(|(_, name)| name).collect();
        keep_frames(&mut doc, &names);
    }
    Ok(doc)
}
