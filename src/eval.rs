//! The eval format (the project's `eval-format.md`): reading the states of a
//! file, computing every quantity of a state with the runtime, writing the same
//! format, and comparing two files within the spec tolerance.
//!
//! A file is `{"model": header, "states": [state, ...]}`. A state holds the
//! inputs `q v a tau w q2` and one entry per quantity (`rnea`, `crba`,
//! `frames.NAME.placement`, ...), with Pinocchio's conventions: matrices as
//! arrays of rows, spatial vectors `[linear; angular]`, SI units.
//!
//! [`QUANTITIES`] is the one table of what the runtime computes: an entry per
//! key, name → function of (model, state). A quantity without an entry is
//! absent from the output, and [`compare`] reports it as not computed.

use rbdgen_runtime::{
    aba, aba_derivatives, ccrba, center_of_mass, compute_joint_jacobians, crba, d_difference,
    d_integrate, dccrba, forward_kinematics, frame_jacobian, integrate, jacobian_center_of_mass,
    kinetic_energy, minverse, potential_energy, rnea, rnea_derivatives, update_frame_placements,
    ArgumentPosition, Data, Jacobians, Model, ReferenceFrame,
};
use serde_json::{Map, Value};
use thiserror::Error;

/// The spec tolerance: a quantity matches when
/// `|ours - ref| <= TOLERANCE * max(1, max|ref|)`, the max over that quantity
/// in that state.
pub const TOLERANCE: f64 = 1e-8;

/// The inputs of a state, in the order of the format.
pub const INPUTS: [&str; 6] = ["q", "v", "a", "tau", "w", "q2"];

/// The key of a reference state that names the quantities left out because
/// Pinocchio's values are NaN or infinite (`make_reference.py
/// --omit-nonfinite`): `["aba", "frames.NAME.jacobian_local", ...]`.
pub const NONFINITE: &str = "nonfinite";

/// The key of a reference state that records quantities recomputed with LAPACK
/// because Pinocchio's own carry rounding errors of order cond(M)·ε
/// (`make_reference.py --refine-ill-conditioned`): `{"cond": ..., "quantities": [...]}`.
pub const REFINED: &str = "refined";

/// Why a file could not be read, evaluated or compared. Every variant names the
/// field, state or model element at fault.
#[derive(Debug, Error)]
pub enum EvalError {
    /// The text is not JSON.
    #[error("not JSON: {0}")]
    Json(String),
    /// A field is missing or has the wrong type; `path` is like `states[2].q`.
    #[error("`{path}`: {reason}")]
    Format {
        /// Where in the document.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// An input of a state has the wrong length for the model.
    #[error("states[{state}].{input} has length {got}, the model needs {want}")]
    Length {
        /// Index of the state.
        state: usize,
        /// The input (`q`, `v`, ...).
        input: &'static str,
        /// Its length in the file.
        got: usize,
        /// `nq` or `nv` of the model.
        want: usize,
    },
    /// The model built from the URDF is not the one the file's header describes.
    #[error("the model does not match the file's header: {0}")]
    ModelMismatch(String),
    /// Two files that [`compare`] cannot put side by side (other model, other
    /// states, other shapes of the same quantity are failures, not errors).
    #[error("the files cannot be compared: {0}")]
    Incomparable(String),
}

/// The `model` header of a file: what the states are states of.
#[derive(Clone, Debug, PartialEq)]
pub struct Header {
    /// The URDF path, as given to the tool that wrote the file.
    pub urdf: String,
    /// Whether the root link has a free-flyer joint.
    pub floating_base: bool,
    /// Length of `q`.
    pub nq: usize,
    /// Length of `v`.
    pub nv: usize,
    /// Joint names in model order, the universe excluded.
    pub joint_names: Vec<String>,
    /// Link (BODY) frame names in model order.
    pub frames: Vec<String>,
}

impl Header {
    /// The header that describes `model`, loaded from `urdf`.
    pub fn of(model: &Model, urdf: &str, floating_base: bool) -> Self {
        Self {
            urdf: urdf.to_string(),
            floating_base,
            nq: model.nq,
            nv: model.nv,
            joint_names: model.joints[1..].iter().map(|j| j.name.clone()).collect(),
            frames: model.body_frames().map(|(_, f)| f.name.clone()).collect(),
        }
    }

    /// Reads the `model` object of a file.
    ///
    /// # Errors
    /// [`EvalError::Format`] naming the missing or mistyped field.
    pub fn from_json(v: &Value) -> Result<Self, EvalError> {
        let field = |name: &str| {
            v.get(name).ok_or_else(|| EvalError::Format {
                path: format!("model.{name}"),
                reason: "missing".into(),
            })
        };
        let wrong = |name: &str, what: &str| EvalError::Format {
            path: format!("model.{name}"),
            reason: format!("not {what}"),
        };
        let count = |name: &str| -> Result<usize, EvalError> {
            field(name)?
                .as_u64()
                .map(|n| n as usize)
                .ok_or_else(|| wrong(name, "a non-negative integer"))
        };
        let names = |name: &str| -> Result<Vec<String>, EvalError> {
            field(name)?
                .as_array()
                .and_then(|a| a.iter().map(|s| s.as_str().map(String::from)).collect())
                .ok_or_else(|| wrong(name, "an array of strings"))
        };
        Ok(Self {
            urdf: field("urdf")?
                .as_str()
                .ok_or_else(|| wrong("urdf", "a string"))?
                .to_string(),
            floating_base: field("floating_base")?
                .as_bool()
                .ok_or_else(|| wrong("floating_base", "a boolean"))?,
            nq: count("nq")?,
            nv: count("nv")?,
            joint_names: names("joint_names")?,
            frames: names("frames")?,
        })
    }

    /// The `model` object of a file.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "urdf": self.urdf,
            "floating_base": self.floating_base,
            "nq": self.nq,
            "nv": self.nv,
            "joint_names": self.joint_names,
            "frames": self.frames,
        })
    }

    /// Checks that `other` describes the same model (the URDF path aside).
    ///
    /// # Errors
    /// A message naming the first difference: base, nq, nv, joint order or names,
    /// link frames.
    pub fn check_same_model(&self, other: &Header) -> Result<(), String> {
        if self.floating_base != other.floating_base {
            let base = |f: bool| if f { "a floating" } else { "a fixed" };
            return Err(format!(
                "{} base here, {} base in the file",
                base(self.floating_base),
                base(other.floating_base)
            ));
        }
        if (self.nq, self.nv) != (other.nq, other.nv) {
            return Err(format!(
                "nq = {}, nv = {} here, nq = {}, nv = {} in the file",
                self.nq, self.nv, other.nq, other.nv
            ));
        }
        first_difference("joint", &self.joint_names, &other.joint_names)?;
        first_difference("link frame", &self.frames, &other.frames)
    }
}

/// The first position where two name lists differ, as a message.
fn first_difference(what: &str, ours: &[String], theirs: &[String]) -> Result<(), String> {
    for k in 0..ours.len().max(theirs.len()) {
        let (a, b) = (ours.get(k), theirs.get(k));
        if a != b {
            let show = |s: Option<&String>| s.map_or("nothing".to_string(), |s| format!("`{s}`"));
            return Err(format!(
                "{what} {k} is {} here, {} in the file",
                show(a),
                show(b)
            ));
        }
    }
    Ok(())
}

/// The inputs of one state.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Configuration `[nq]` (rad, m; free-flyer `[x y z qx qy qz qw]`).
    pub q: Vec<f64>,
    /// Velocity `[nv]` (rad/s, m/s; free-flyer in the base frame).
    pub v: Vec<f64>,
    /// Acceleration `[nv]`.
    pub a: Vec<f64>,
    /// Joint torques and forces `[nv]` (N·m, N).
    pub tau: Vec<f64>,
    /// Tangent step `[nv]` for `integrate(q, w)`.
    pub w: Vec<f64>,
    /// Second configuration `[nq]` for `difference(q, q2)`.
    pub q2: Vec<f64>,
}

impl State {
    /// Reads the inputs of `states[index]`; other keys are ignored.
    ///
    /// # Errors
    /// [`EvalError::Format`] naming a missing input or a non-numeric entry.
    pub fn from_json(v: &Value, index: usize) -> Result<Self, EvalError> {
        let input = |name: &str| -> Result<Vec<f64>, EvalError> {
            let path = format!("states[{index}].{name}");
            let array = v
                .get(name)
                .ok_or_else(|| EvalError::Format {
                    path: path.clone(),
                    reason: "missing".into(),
                })?
                .as_array()
                .ok_or_else(|| EvalError::Format {
                    path: path.clone(),
                    reason: "not an array".into(),
                })?;
            array
                .iter()
                .map(Value::as_f64)
                .collect::<Option<Vec<f64>>>()
                .ok_or_else(|| EvalError::Format {
                    path,
                    reason: "not an array of numbers".into(),
                })
        };
        Ok(Self {
            q: input("q")?,
            v: input("v")?,
            a: input("a")?,
            tau: input("tau")?,
            w: input("w")?,
            q2: input("q2")?,
        })
    }

    /// The inputs by name, in the order of [`INPUTS`].
    pub fn inputs(&self) -> [(&'static str, &[f64]); 6] {
        [
            ("q", &self.q),
            ("v", &self.v),
            ("a", &self.a),
            ("tau", &self.tau),
            ("w", &self.w),
            ("q2", &self.q2),
        ]
    }

    /// Checks every input's length against the model (`q`, `q2`: nq; the rest: nv).
    ///
    /// # Errors
    /// [`EvalError::Length`] for the first input of the wrong length.
    pub fn check_lengths(&self, model: &Model, index: usize) -> Result<(), EvalError> {
        for (input, values) in self.inputs() {
            let want = if input.starts_with('q') {
                model.nq
            } else {
                model.nv
            };
            if values.len() != want {
                return Err(EvalError::Length {
                    state: index,
                    input,
                    got: values.len(),
                    want,
                });
            }
        }
        Ok(())
    }
}

/// A file of states: its header and the inputs of each state.
#[derive(Clone, Debug, PartialEq)]
pub struct StatesFile {
    /// The `model` header.
    pub header: Header,
    /// The inputs of each state, in file order.
    pub states: Vec<State>,
}

impl StatesFile {
    /// Reads the header and the inputs of every state of a file in the eval
    /// format (a reference file works: its quantities are ignored).
    ///
    /// # Errors
    /// [`EvalError::Json`] for text that is not JSON, [`EvalError::Format`]
    /// naming a missing or mistyped field.
    pub fn parse(text: &str) -> Result<Self, EvalError> {
        let doc: Value = serde_json::from_str(text).map_err(|e| EvalError::Json(e.to_string()))?;
        let header = Header::from_json(doc.get("model").ok_or_else(|| EvalError::Format {
            path: "model".into(),
            reason: "missing".into(),
        })?)?;
        let states = doc
            .get("states")
            .and_then(Value::as_array)
            .ok_or_else(|| EvalError::Format {
                path: "states".into(),
                reason: "missing or not an array".into(),
            })?
            .iter()
            .enumerate()
            .map(|(k, s)| State::from_json(s, k))
            .collect::<Result<_, _>>()?;
        Ok(Self { header, states })
    }
}

/// One quantity of the format: its key in a state and how the runtime computes it.
pub struct Quantity {
    /// The key (`rnea`, `crba`, `frames`, ...).
    pub name: &'static str,
    /// Its value at a state whose inputs have the model's lengths: a number, a
    /// vector, a matrix as an array of rows, or an object of those. `data` is a
    /// workspace for the model, in no particular state.
    pub compute: fn(&Model, &mut Data<f64>, &State) -> Value,
}

/// Every quantity the runtime computes today, in the order of the format.
/// A quantity of the format without an entry is left out of the output.
pub static QUANTITIES: &[Quantity] = &[
    Quantity {
        name: "rnea",
        compute: |m, d, s| vector(rnea(m, d, &s.q, &s.v, &s.a)),
    },
    Quantity {
        name: "nle",
        compute: |m, d, s| vector(rnea(m, d, &s.q, &s.v, &vec![0.0; m.nv])),
    },
    Quantity {
        name: "gravity",
        compute: |m, d, s| {
            let zero = vec![0.0; m.nv];
            vector(rnea(m, d, &s.q, &zero, &zero))
        },
    },
    Quantity {
        name: "crba",
        compute: |m, d, s| matrix(crba(m, d, &s.q), m.nv, m.nv),
    },
    Quantity {
        name: "aba",
        compute: |m, d, s| vector(aba(m, d, &s.q, &s.v, &s.tau)),
    },
    Quantity {
        name: "minv",
        compute: |m, d, s| matrix(minverse(m, d, &s.q), m.nv, m.nv),
    },
    Quantity {
        name: "com",
        compute: |m, d, s| vector(&center_of_mass(m, d, &s.q).0),
    },
    Quantity {
        name: "jcom",
        compute: |m, d, s| matrix(jacobian_center_of_mass(m, d, &s.q), 3, m.nv),
    },
    Quantity {
        name: "ag",
        compute: |m, d, s| matrix(ccrba(m, d, &s.q, &s.v).0, 6, m.nv),
    },
    Quantity {
        name: "hg",
        compute: |m, d, s| vector(&ccrba(m, d, &s.q, &s.v).1.to_array()),
    },
    Quantity {
        name: "dag",
        compute: |m, d, s| matrix(dccrba(m, d, &s.q, &s.v), 6, m.nv),
    },
    Quantity {
        name: "kinetic_energy",
        compute: |m, d, s| Value::from(kinetic_energy(m, d, &s.q, &s.v)),
    },
    Quantity {
        name: "potential_energy",
        compute: |m, d, s| Value::from(potential_energy(m, d, &s.q)),
    },
    Quantity {
        name: "frames",
        compute: frames,
    },
    Quantity {
        name: "rnea_derivatives",
        compute: |m, _, s| {
            let mut data = Data::<f64>::new(m);
            let j = rnea_derivatives(m, &mut data, &s.q, &s.v, &s.a);
            derivatives(m, &j, ["dtau_dq", "dtau_dv", "dtau_da"])
        },
    },
    Quantity {
        name: "aba_derivatives",
        compute: |m, _, s| {
            let mut data = Data::<f64>::new(m);
            let j = aba_derivatives(m, &mut data, &s.q, &s.v, &s.tau);
            derivatives(m, &j, ["ddq_dq", "ddq_dv", "ddq_dtau"])
        },
    },
    Quantity {
        name: "integrate",
        compute: |m, _, s| vector(&integrate(m, &s.q, &s.w)),
    },
    Quantity {
        name: "difference",
        compute: |m, _, s| vector(&rbdgen_runtime::difference(m, &s.q, &s.q2)),
    },
    Quantity {
        name: "dintegrate",
        compute: |m, _, s| {
            let arg = |a| matrix(&d_integrate(m, &s.q, &s.w, a), m.nv, m.nv);
            pair(arg(ArgumentPosition::Arg0), arg(ArgumentPosition::Arg1))
        },
    },
    Quantity {
        name: "ddifference",
        compute: |m, _, s| {
            let arg = |a| matrix(&d_difference(m, &s.q, &s.q2, a), m.nv, m.nv);
            pair(arg(ArgumentPosition::Arg0), arg(ArgumentPosition::Arg1))
        },
    },
    Quantity {
        name: "omi",
        compute: omi,
    },
];

/// One quantity of each link frame (`frames.NAME.<name>`).
pub struct FrameQuantity {
    /// The key inside a frame's object (`placement`, `jacobian_local`, ...).
    pub name: &'static str,
    /// Its value for the frame with index `frame` in `model.frames`; `data`
    /// holds the forward kinematics and frame placements at `state.q`.
    pub compute: fn(&Model, &mut Data<f64>, &State, usize) -> Value,
}

/// Every per-frame quantity the runtime computes today.
pub static FRAME_QUANTITIES: &[FrameQuantity] = &[
    FrameQuantity {
        name: "placement",
        compute: |_, d, _, frame| homogeneous(&d.o_mf[frame].to_homogeneous()),
    },
    FrameQuantity {
        name: "jacobian_local",
        compute: |m, d, _, frame| {
            matrix(&frame_jacobian(m, d, frame, ReferenceFrame::Local), 6, m.nv)
        },
    },
    FrameQuantity {
        name: "jacobian_world",
        compute: |m, d, _, frame| {
            matrix(&frame_jacobian(m, d, frame, ReferenceFrame::World), 6, m.nv)
        },
    },
    FrameQuantity {
        name: "jacobian_local_world_aligned",
        compute: |m, d, _, frame| {
            matrix(
                &frame_jacobian(m, d, frame, ReferenceFrame::LocalWorldAligned),
                6,
                m.nv,
            )
        },
    },
];

/// `frames`: an object with one entry per link frame, holding [`FRAME_QUANTITIES`].
fn frames(model: &Model, data: &mut Data<f64>, state: &State) -> Value {
    compute_joint_jacobians(model, data, &state.q);
    forward_kinematics(model, data, &state.q);
    update_frame_placements(model, data);
    let mut out = Map::new();
    for (id, frame) in model.body_frames() {
        let entry = FRAME_QUANTITIES
            .iter()
            .map(|fq| (fq.name.to_string(), (fq.compute)(model, data, state, id)))
            .collect();
        out.insert(frame.name.clone(), Value::Object(entry));
    }
    Value::Object(out)
}

/// `omi`: `world_from_joint` (Pinocchio's `data.oMi`) of the joints 1 .. njoints-1
/// as 4 x 4 homogeneous matrices, a key of the reference files beside the spec's.
fn omi(model: &Model, data: &mut Data<f64>, state: &State) -> Value {
    forward_kinematics(model, data, &state.q);
    Value::Array(
        data.o_mi[1..]
            .iter()
            .map(|t| homogeneous(&t.to_homogeneous()))
            .collect(),
    )
}

/// `{d0, d1}` of a Lie-group Jacobian pair.
fn pair(d0: Value, d1: Value) -> Value {
    let mut out = Map::new();
    out.insert("d0".into(), d0);
    out.insert("d1".into(), d1);
    Value::Object(out)
}

/// The three Jacobians of a dynamics function under the format's names.
fn derivatives(model: &Model, j: &Jacobians, names: [&str; 3]) -> Value {
    let mut out = Map::new();
    for (name, m) in names.into_iter().zip([&j.d_dq, &j.d_dv, &j.d_du]) {
        out.insert(name.into(), matrix(m, model.nv, model.nv));
    }
    Value::Object(out)
}

fn vector(x: &[f64]) -> Value {
    Value::from(x.to_vec())
}

/// A row-major `rows x cols` slice as an array of rows.
fn matrix(x: &[f64], rows: usize, cols: usize) -> Value {
    Value::Array(
        (0..rows)
            .map(|r| vector(&x[r * cols..(r + 1) * cols]))
            .collect(),
    )
}

fn homogeneous(m: &[[f64; 4]; 4]) -> Value {
    Value::Array(m.iter().map(|row| vector(row)).collect())
}

/// Evaluates every state of `file` with the runtime: the document of the eval
/// format with the header of `model` and, per state, the inputs and every
/// entry of [`QUANTITIES`].
///
/// `urdf` and `floating_base` are what `model` was loaded from; they go to the
/// header.
///
/// # Errors
/// [`EvalError::ModelMismatch`] when the file's header describes another model
/// (base, nq, nv, joint or frame names), [`EvalError::Length`] for an input of
/// the wrong length.
pub fn evaluate(
    model: &Model,
    urdf: &str,
    floating_base: bool,
    file: &StatesFile,
) -> Result<Value, EvalError> {
    let header = Header::of(model, urdf, floating_base);
    header
        .check_same_model(&file.header)
        .map_err(EvalError::ModelMismatch)?;
    for (k, state) in file.states.iter().enumerate() {
        state.check_lengths(model, k)?;
    }
    let mut data = Data::new(model);
    let states: Vec<Value> = file
        .states
        .iter()
        .map(|state| Value::Object(evaluate_state(model, &mut data, state)))
        .collect();
    Ok(serde_json::json!({ "model": header.to_json(), "states": states }))
}

/// The inputs and every entry of [`QUANTITIES`] at one state, whose inputs must
/// have the model's lengths ([`State::check_lengths`]).
pub fn evaluate_state(model: &Model, data: &mut Data<f64>, state: &State) -> Map<String, Value> {
    let mut out: Map<String, Value> = state
        .inputs()
        .iter()
        .map(|(name, x)| (name.to_string(), vector(x)))
        .collect();
    for quantity in QUANTITIES {
        out.insert(
            quantity.name.to_string(),
            (quantity.compute)(model, data, state),
        );
    }
    out
}

/// How one quantity of a reference compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Within the tolerance in every state (and every frame).
    Passed,
    /// Out of tolerance, of another shape, or present in some states only.
    Failed,
    /// Absent from every state of ours: not computed yet.
    Missing,
}

/// The comparison of one quantity over all states. A quantity is a key of a
/// state (`rnea`), a key of a nested object (`rnea_derivatives.dtau_dq`), or a
/// key of the link frames (`frames.placement`, over every frame).
#[derive(Clone, Debug, PartialEq)]
pub struct QuantityReport {
    /// The quantity's name.
    pub name: String,
    /// Its verdict.
    pub status: Status,
    /// The worst relative error `|ours - ref| / max(1, max|ref|)` over the
    /// states (and frames) where ours is present; 0 when none is.
    pub worst: f64,
    /// Where the worst error, or the failure, is (`state 2, frame FL_foot`).
    pub at: String,
    /// Why it failed, when it did not fail on the tolerance alone.
    pub problem: Option<String>,
}

/// The comparison of two files, one report per quantity of the reference.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// One report per quantity of the reference, sorted by name.
    pub quantities: Vec<QuantityReport>,
    /// The quantities that the reference leaves out of some state because
    /// Pinocchio's values are not finite ([`NONFINITE`]), sorted, frame names
    /// dropped (`frames.jacobian_local`).
    pub nonfinite: Vec<String>,
}

impl Comparison {
    /// The quantities with the given status.
    pub fn with_status(&self, status: Status) -> impl Iterator<Item = &QuantityReport> {
        self.quantities.iter().filter(move |q| q.status == status)
    }

    /// The number of quantities with the given status.
    pub fn count(&self, status: Status) -> usize {
        self.with_status(status).count()
    }

    /// The worst relative error over every quantity.
    pub fn worst(&self) -> f64 {
        self.quantities.iter().map(|q| q.worst).fold(0.0, max_nan)
    }
}

/// Compares `ours` with `reference`, two documents of the eval format, with the
/// spec tolerance: a quantity passes when, in every state (and for every
/// frame), `|ours - ref| <= TOLERANCE * max(1, max|ref|)`. Quantities of ours
/// that the reference lacks are ignored.
///
/// # Errors
/// [`EvalError::Incomparable`] when the two headers describe other models, the
/// numbers of states differ or the inputs of a state differ;
/// [`EvalError::Format`] for a document that is not in the format.
pub fn compare(reference: &Value, ours: &Value) -> Result<Comparison, EvalError> {
    let header = |doc: &Value| {
        Header::from_json(doc.get("model").ok_or_else(|| EvalError::Format {
            path: "model".into(),
            reason: "missing".into(),
        })?)
    };
    header(ours)?
        .check_same_model(&header(reference)?)
        .map_err(|e| EvalError::Incomparable(format!("model headers: {e}")))?;
    let states = |doc: &Value| -> Result<Vec<Value>, EvalError> {
        doc.get("states")
            .and_then(Value::as_array)
            .cloned()
            .ok_or_else(|| EvalError::Format {
                path: "states".into(),
                reason: "missing or not an array".into(),
            })
    };
    let (ref_states, our_states) = (states(reference)?, states(ours)?);
    if ref_states.len() != our_states.len() {
        return Err(EvalError::Incomparable(format!(
            "{} states in the reference, {} in ours",
            ref_states.len(),
            our_states.len()
        )));
    }
    let mut groups: std::collections::BTreeMap<String, Group> = Default::default();
    let mut nonfinite = std::collections::BTreeSet::new();
    for (k, (r, o)) in ref_states.iter().zip(&our_states).enumerate() {
        let (ri, oi) = (State::from_json(r, k)?, State::from_json(o, k)?);
        if ri != oi {
            return Err(EvalError::Incomparable(format!(
                "the inputs of state {k} differ: ours were not computed from the reference's states"
            )));
        }
        for name in r
            .get(NONFINITE)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = name.as_str().unwrap_or_default();
            nonfinite.insert(match name.strip_prefix("frames.") {
                Some(rest) => format!("frames.{}", rest.rsplit('.').next().unwrap_or(rest)),
                None => name.to_string(),
            });
        }
        for leaf in leaves(r) {
            let found = leaf.path.iter().try_fold(o, |v, key| v.get(key));
            let at = match &leaf.frame {
                Some(frame) => format!("state {k}, frame {frame}"),
                None => format!("state {k}"),
            };
            groups
                .entry(leaf.group)
                .or_default()
                .add(found.map(|ours| difference(leaf.value, ours)), at);
        }
    }
    Ok(Comparison {
        quantities: groups.into_iter().map(|(name, g)| g.report(name)).collect(),
        nonfinite: nonfinite.into_iter().collect(),
    })
}

/// A numeric leaf of a reference state.
struct Leaf<'a> {
    /// The quantity it belongs to (`frames.placement`).
    group: String,
    /// Its keys from the state (`["frames", "FL_foot", "placement"]`).
    path: Vec<String>,
    /// The link frame, for per-frame quantities.
    frame: Option<String>,
    value: &'a Value,
}

/// The quantities of a state: every key but the inputs and [`NONFINITE`],
/// objects opened one level (the frames object two: frame name, then quantity).
fn leaves(state: &Value) -> Vec<Leaf<'_>> {
    let mut out = Vec::new();
    let Some(entries) = state.as_object() else {
        return out;
    };
    for (key, value) in entries {
        // `fext` is the input of the reference's extension key `rnea_fext`.
        if INPUTS.contains(&key.as_str()) || key == "fext" || key == NONFINITE || key == REFINED {
            continue;
        }
        match (key.as_str(), value) {
            ("frames", Value::Object(frames)) => {
                for (frame, quantities) in frames {
                    for (name, v) in quantities.as_object().into_iter().flatten() {
                        out.push(Leaf {
                            group: format!("frames.{name}"),
                            path: vec![key.clone(), frame.clone(), name.clone()],
                            frame: Some(frame.clone()),
                            value: v,
                        });
                    }
                }
            }
            (_, Value::Object(parts)) => {
                for (name, v) in parts {
                    out.push(Leaf {
                        group: format!("{key}.{name}"),
                        path: vec![key.clone(), name.clone()],
                        frame: None,
                        value: v,
                    });
                }
            }
            _ => out.push(Leaf {
                group: key.clone(),
                path: vec![key.clone()],
                frame: None,
                value,
            }),
        }
    }
    out
}

/// `(max |ours - ref|, max |ref|)` over two values of the same shape, or why
/// they cannot be compared.
fn difference(reference: &Value, ours: &Value) -> Result<(f64, f64), String> {
    match (reference, ours) {
        (Value::Number(r), Value::Number(o)) => {
            let (r, o) = (
                r.as_f64().unwrap_or(f64::NAN),
                o.as_f64().unwrap_or(f64::NAN),
            );
            Ok(((o - r).abs(), r.abs()))
        }
        (Value::Array(r), Value::Array(o)) if r.len() == o.len() => {
            r.iter()
                .zip(o)
                .try_fold((0.0f64, 0.0f64), |(d, m), (r, o)| {
                    let (dk, mk) = difference(r, o)?;
                    Ok((max_nan(d, dk), m.max(mk)))
                })
        }
        (Value::Array(r), Value::Array(o)) => {
            Err(format!("length {} instead of {}", o.len(), r.len()))
        }
        (_, Value::Null) => Err("not a number (NaN or infinite)".into()),
        _ => Err("another shape".into()),
    }
}

/// The larger of two errors, NaN if either is: a NaN must fail, so it may not
/// vanish in a max as `f64::max` lets it.
fn max_nan(a: f64, b: f64) -> f64 {
    if a.is_nan() || b.is_nan() {
        f64::NAN
    } else {
        a.max(b)
    }
}

/// The comparisons of one quantity, state after state.
#[derive(Default)]
struct Group {
    present: usize,
    missing: Vec<String>,
    worst: f64,
    worst_at: String,
    failure: Option<(String, Option<String>)>,
}

impl Group {
    fn add(&mut self, result: Option<Result<(f64, f64), String>>, at: String) {
        match result {
            None => self.missing.push(at),
            Some(Err(problem)) => {
                self.present += 1;
                self.failure.get_or_insert((at, Some(problem)));
            }
            Some(Ok((diff, scale))) => {
                self.present += 1;
                let relative = diff / scale.max(1.0);
                if relative.is_nan() || relative > TOLERANCE {
                    self.failure.get_or_insert((at.clone(), None));
                }
                if !self.worst.is_nan() && (relative.is_nan() || relative > self.worst) {
                    self.worst = relative;
                    self.worst_at = at;
                }
            }
        }
    }

    fn report(self, name: String) -> QuantityReport {
        let (status, at, problem) = match (self.failure, self.present, self.missing.first()) {
            (Some((at, problem)), _, _) => (Status::Failed, at, problem),
            (None, 0, _) => (Status::Missing, String::new(), None),
            (None, _, Some(at)) => (
                Status::Failed,
                at.clone(),
                Some("absent here, present elsewhere".into()),
            ),
            (None, _, None) => (Status::Passed, self.worst_at, None),
        };
        QuantityReport {
            name,
            status,
            worst: self.worst,
            at,
            problem,
        }
    }
}
