//! The eval format (the project's `eval-format.md`): reading the states of a
//! file, computing every quantity of a state with the runtime, writing the same
//! format, and comparing two files within the spec tolerance.
//!
//! A file is `{"model": header, "states": [state, ...]}`. The header may carry
//! the whole-body inputs `armature` and `contacts`, which change what the
//! dynamics mean. A state holds the inputs `q v a tau w q2` (and `fext` for
//! the whole-body extension) and one entry per quantity (`rnea`, `crba`,
//! `frames.NAME.placement`, `contact_dynamics`, ...), with Pinocchio's
//! conventions: matrices as arrays of rows, spatial vectors `[linear;
//! angular]`, SI units.
//!
//! [`PARTS`] is the one table of the format's quantities: each names the
//! function of the generator's table ([`Function`]) that computes it, and the
//! runtime computes it with that function's generic evaluation on `f64`
//! ([`Function::evaluate`]), as the generated code does with its compiled
//! counterpart (`rbdgen eval --backend generated`). A quantity is absent
//! where the state or model lacks its function's inputs ([`unavailable`]: no
//! `fext`, no contact set), and [`compare`] reports it as not computed.

use rbdgen_runtime::{forward_kinematics, ContactKind, Data, Force, Model};
use rbdgen_symbolic::{Dim, Function, Output};
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
        /// Its length in the file (wrenches for `fext`).
        got: usize,
        /// `nq` or `nv` of the model (`njoints` for `fext`).
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
    /// The armature per velocity dof (`model.armature`, Pinocchio's), when the
    /// file has one; absent means zeros.
    pub armature: Option<Vec<f64>>,
    /// The contact set (`model.contacts`): link frame names and kinds, in row
    /// order; absent means none.
    pub contacts: Option<Vec<(String, ContactKind)>>,
}

impl Header {
    /// The header that describes `model`, loaded from `urdf`: with its
    /// armature when it has one (a nonzero entry) and its contact set when it
    /// has one.
    pub fn of(model: &Model, urdf: &str, floating_base: bool) -> Self {
        Self {
            urdf: urdf.to_string(),
            floating_base,
            nq: model.nq,
            nv: model.nv,
            joint_names: model.joints[1..].iter().map(|j| j.name.clone()).collect(),
            frames: model.body_frames().map(|(_, f)| f.name.clone()).collect(),
            armature: model
                .armature
                .iter()
                .any(|&a| a != 0.0)
                .then(|| model.armature.clone()),
            contacts: (!model.contacts.is_empty()).then(|| {
                model
                    .contacts
                    .iter()
                    .map(|c| (model.frames[c.frame].name.clone(), c.kind))
                    .collect()
            }),
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
        let armature = match v.get("armature") {
            None => None,
            Some(a) => Some(
                a.as_array()
                    .and_then(|a| a.iter().map(Value::as_f64).collect::<Option<Vec<f64>>>())
                    .ok_or_else(|| wrong("armature", "an array of numbers"))?,
            ),
        };
        let contacts = match v.get("contacts") {
            None => None,
            Some(list) => Some(
                list.as_array()
                    .ok_or_else(|| wrong("contacts", "an array"))?
                    .iter()
                    .enumerate()
                    .map(|(k, c)| {
                        let path = |key: &str| format!("model.contacts[{k}].{key}");
                        let text = |key: &str| {
                            c.get(key)
                                .and_then(Value::as_str)
                                .ok_or_else(|| EvalError::Format {
                                    path: path(key),
                                    reason: "missing or not a string".into(),
                                })
                        };
                        let (frame, kind) = (text("frame")?, text("type")?);
                        let kind =
                            ContactKind::from_name(kind).ok_or_else(|| EvalError::Format {
                                path: path("type"),
                                reason: format!("`{kind}` is not `point` or `6d`"),
                            })?;
                        Ok((frame.to_string(), kind))
                    })
                    .collect::<Result<_, EvalError>>()?,
            ),
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
            armature,
            contacts,
        })
    }

    /// The `model` object of a file (`armature` and `contacts` only when set).
    pub fn to_json(&self) -> Value {
        let mut out = serde_json::json!({
            "urdf": self.urdf,
            "floating_base": self.floating_base,
            "nq": self.nq,
            "nv": self.nv,
            "joint_names": self.joint_names,
            "frames": self.frames,
        });
        if let Some(armature) = &self.armature {
            out["armature"] = Value::from(armature.clone());
        }
        if let Some(contacts) = &self.contacts {
            out["contacts"] = contacts
                .iter()
                .map(|(frame, kind)| serde_json::json!({"frame": frame, "type": kind.name()}))
                .collect();
        }
        out
    }

    /// Checks that `other` (the file, or the reference) describes the same
    /// model (the URDF path aside), and the same inputs of the dynamics: the
    /// armature (absent = zeros), and `other`'s contact set when it has one
    /// (without one, `other` has no contact quantities, and ours are extra).
    ///
    /// # Errors
    /// A message naming the first difference: base, nq, nv, joint order or
    /// names, link frames, an armature entry, a contact.
    pub fn check_same_model(&self, other: &Header) -> Result<(), String> {
        self.check_same_structure(other)?;
        let armature = |h: &Header| h.armature.clone().unwrap_or_else(|| vec![0.0; h.nv]);
        let (ours, theirs) = (armature(self), armature(other));
        if let Some(k) = (0..ours.len()).find(|&k| ours[k] != theirs[k]) {
            return Err(format!(
                "armature of dof {k} is {} here, {} in the file",
                ours[k], theirs[k]
            ));
        }
        let contacts = |h: &Header| -> Vec<String> {
            h.contacts
                .iter()
                .flatten()
                .map(|(frame, kind)| format!("{frame}:{}", kind.name()))
                .collect()
        };
        if other.contacts.is_none() {
            return Ok(());
        }
        first_difference("contact", &contacts(self), &contacts(other))
    }

    /// Checks that `other` describes the same kinematic tree: base, nq, nv,
    /// joints and link frames (not the armature or the contacts).
    ///
    /// # Errors
    /// A message naming the first difference.
    pub fn check_same_structure(&self, other: &Header) -> Result<(), String> {
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

    /// Sets the header's armature and contact set on `model` (one of the
    /// same structure, [`Header::check_same_structure`]). A model that already
    /// has an armature or a contact set (from the command line) keeps it when
    /// the header has none, and must agree with the header's otherwise.
    ///
    /// # Errors
    /// [`EvalError::Format`] naming the entry at fault: an armature of the
    /// wrong length, negative or not finite; a contact on a frame that is not
    /// a link frame, on a link welded to the world, or named twice.
    /// [`EvalError::ModelMismatch`] when the model's own setting differs.
    pub fn apply_to(&self, model: &mut Model) -> Result<(), EvalError> {
        if let Some(armature) = &self.armature {
            if armature.len() != model.nv {
                return Err(EvalError::Format {
                    path: "model.armature".into(),
                    reason: format!(
                        "has length {}, the model needs nv = {}",
                        armature.len(),
                        model.nv
                    ),
                });
            }
            for (k, &a) in armature.iter().enumerate() {
                if !(a.is_finite() && a >= 0.0) {
                    let joint = model.joints[1..]
                        .iter()
                        .find(|j| j.v_range().contains(&k))
                        .map_or(String::new(), |j| format!(" (joint `{}`)", j.name));
                    return Err(EvalError::Format {
                        path: format!("model.armature[{k}]"),
                        reason: format!(
                            "{a}{joint} is not a finite value >= 0: an armature is a rotor inertia"
                        ),
                    });
                }
            }
            if model.armature.iter().any(|&a| a != 0.0) && model.armature != *armature {
                return Err(EvalError::ModelMismatch(
                    "the armature given on the command line differs from the file's \
                     `model.armature`"
                        .into(),
                ));
            }
            model.armature = armature.clone();
        }
        if let Some(contacts) = &self.contacts {
            for (k, (frame, _)) in contacts.iter().enumerate() {
                model.link_frame(frame).map_err(|e| EvalError::Format {
                    path: format!("model.contacts[{k}].frame"),
                    reason: e.to_string(),
                })?;
            }
            let mut with = model.clone();
            let list: Vec<(&str, ContactKind)> =
                contacts.iter().map(|(f, k)| (f.as_str(), *k)).collect();
            with.set_contacts(&list).map_err(|e| EvalError::Format {
                path: "model.contacts".into(),
                reason: e.to_string(),
            })?;
            if !model.contacts.is_empty() && model.contacts != with.contacts {
                return Err(EvalError::ModelMismatch(
                    "the contacts given on the command line differ from the file's \
                     `model.contacts`"
                        .into(),
                ));
            }
            model.contacts = with.contacts;
        }
        Ok(())
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
    /// External wrenches `[njoints][6]` of the whole-body extension, one per
    /// joint id `[linear; angular]` in that joint's frame (entry 0, the
    /// universe, ignored); the `*_fext` quantities need them.
    pub fext: Option<Vec<[f64; 6]>>,
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
        let fext = match v.get("fext") {
            None => None,
            Some(rows) => Some(
                rows.as_array()
                    .and_then(|rows| {
                        rows.iter()
                            .map(|row| {
                                let row = row.as_array().filter(|r| r.len() == 6)?;
                                let mut w = [0.0; 6];
                                for (x, value) in w.iter_mut().zip(row) {
                                    *x = value.as_f64()?;
                                }
                                Some(w)
                            })
                            .collect::<Option<Vec<_>>>()
                    })
                    .ok_or_else(|| EvalError::Format {
                        path: format!("states[{index}].fext"),
                        reason: "not an array of wrenches of 6 numbers".into(),
                    })?,
            ),
        };
        Ok(Self {
            q: input("q")?,
            v: input("v")?,
            a: input("a")?,
            tau: input("tau")?,
            w: input("w")?,
            q2: input("q2")?,
            fext,
        })
    }

    /// The external wrenches as forces, when the state has them.
    pub fn forces(&self) -> Option<Vec<Force<f64>>> {
        self.fext
            .as_ref()
            .map(|f| f.iter().map(|w| Force::from_slice(w)).collect())
    }

    /// The inputs as JSON entries: those of [`INPUTS`], and `fext` when present.
    pub fn to_json(&self) -> Map<String, Value> {
        let mut out: Map<String, Value> = self
            .inputs()
            .iter()
            .map(|(name, x)| (name.to_string(), vector(x)))
            .collect();
        if let Some(fext) = &self.fext {
            out.insert(
                "fext".into(),
                Value::Array(fext.iter().map(|w| vector(w)).collect()),
            );
        }
        out
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

    /// Checks every input's length against the model (`q`, `q2`: nq; `fext`:
    /// njoints wrenches; the rest: nv).
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
        match &self.fext {
            Some(fext) if fext.len() != model.njoints() => Err(EvalError::Length {
                state: index,
                input: "fext",
                got: fext.len(),
                want: model.njoints(),
            }),
            _ => Ok(()),
        }
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

/// One entry of a quantity of the format and the function of the table
/// ([`Function`]) that computes it: `quantity` (with `key` inside it, or
/// inside each link frame's object for a per-frame function, and `sub`
/// inside that) is member `element` of the function's output (the tuple
/// member for a tuple output, 0 otherwise).
#[derive(Clone, Copy, Debug)]
pub struct Part {
    /// The key of the quantity in a state (`rnea`, `frames`, `dintegrate`, ...).
    pub quantity: &'static str,
    /// The entry inside the quantity (`d0`, `jacobian_local`, ...); `None` for
    /// the whole quantity.
    pub key: Option<&'static str>,
    /// For a per-frame entry that is itself an object
    /// (`frames.NAME.velocity_derivatives_local.dv_dq`), the entry inside it
    /// (`dv_dq`); `None` otherwise.
    pub sub: Option<&'static str>,
    /// The function of the table.
    pub function: Function,
    /// Which member of a tuple output.
    pub element: usize,
}

const fn part(quantity: &'static str, function: Function) -> Part {
    Part {
        quantity,
        key: None,
        sub: None,
        function,
        element: 0,
    }
}

/// `frames.NAME.key.sub`: member `element` of a per-frame function.
const fn frame_entry(
    key: &'static str,
    sub: &'static str,
    function: Function,
    element: usize,
) -> Part {
    Part {
        quantity: "frames",
        key: Some(key),
        sub: Some(sub),
        function,
        element,
    }
}

const fn entry(
    quantity: &'static str,
    key: &'static str,
    function: Function,
    element: usize,
) -> Part {
    Part {
        quantity,
        key: Some(key),
        sub: None,
        function,
        element,
    }
}

/// Every quantity of the format and the function that computes it, in the
/// order of the format (the whole-body extension after the base format): the
/// one table of what `rbdgen eval` computes, with the runtime
/// ([`Function::evaluate`] on `f64`) or with the generated code. The
/// arguments of a function are the state's inputs of the same name
/// ([`arguments`]). `omi` ([`OMI`]) is computed beside them.
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
    entry("frames", "placement", Function::FramePlacement, 0),
    entry("frames", "jacobian_local", Function::FrameJacobianLocal, 0),
    entry("frames", "jacobian_world", Function::FrameJacobianWorld, 0),
    entry(
        "frames",
        "jacobian_local_world_aligned",
        Function::FrameJacobianLocalWorldAligned,
        0,
    ),
    entry(
        "frames",
        "jacobian_time_variation_local",
        Function::FrameJacobianTimeVariationLocal,
        0,
    ),
    entry(
        "frames",
        "jacobian_time_variation_world",
        Function::FrameJacobianTimeVariationWorld,
        0,
    ),
    entry(
        "frames",
        "jacobian_time_variation_local_world_aligned",
        Function::FrameJacobianTimeVariationLocalWorldAligned,
        0,
    ),
    entry(
        "frames",
        "acceleration_drift_local",
        Function::FrameAccelerationDrift,
        0,
    ),
    entry(
        "frames",
        "acceleration_drift_local_world_aligned",
        Function::FrameAccelerationDrift,
        1,
    ),
    entry(
        "frames",
        "classical_acceleration_drift_local_world_aligned",
        Function::FrameAccelerationDrift,
        2,
    ),
    entry("rnea_derivatives", "dtau_dq", Function::RneaDerivatives, 0),
    entry("rnea_derivatives", "dtau_dv", Function::RneaDerivatives, 1),
    entry("rnea_derivatives", "dtau_da", Function::RneaDerivatives, 2),
    entry("aba_derivatives", "ddq_dq", Function::AbaDerivatives, 0),
    entry("aba_derivatives", "ddq_dv", Function::AbaDerivatives, 1),
    entry("aba_derivatives", "ddq_dtau", Function::AbaDerivatives, 2),
    part("integrate", Function::Integrate),
    part("difference", Function::Difference),
    entry("dintegrate", "d0", Function::DIntegrateDq, 0),
    entry("dintegrate", "d1", Function::DIntegrateDv, 0),
    entry("ddifference", "d0", Function::DDifferenceDq0, 0),
    entry("ddifference", "d1", Function::DDifferenceDq1, 0),
    part("rnea_fext", Function::RneaFext),
    part("aba_fext", Function::AbaFext),
    entry(
        "aba_derivatives_fext",
        "ddq_dq",
        Function::AbaDerivativesFext,
        0,
    ),
    entry(
        "aba_derivatives_fext",
        "ddq_dv",
        Function::AbaDerivativesFext,
        1,
    ),
    entry(
        "aba_derivatives_fext",
        "ddq_dtau",
        Function::AbaDerivativesFext,
        2,
    ),
    part("dhg", Function::CentroidalMomentumRate),
    part("regressor", Function::JointTorqueRegressor),
    part("contact_jacobian", Function::ContactJacobian),
    part("contact_drift", Function::ContactDrift),
    entry("contact_dynamics", "ddq", Function::ContactDynamics, 0),
    entry("contact_dynamics", "lambda", Function::ContactDynamics, 1),
    // The MPC derivative quantities (extension), damping and restitution 0.
    frame_entry(
        "velocity_derivatives_local",
        "dv_dq",
        Function::FrameVelocityDerivativesLocal,
        0,
    ),
    frame_entry(
        "velocity_derivatives_local",
        "dv_dv",
        Function::FrameVelocityDerivativesLocal,
        1,
    ),
    frame_entry(
        "velocity_derivatives_local_world_aligned",
        "dv_dq",
        Function::FrameVelocityDerivativesLocalWorldAligned,
        0,
    ),
    frame_entry(
        "velocity_derivatives_local_world_aligned",
        "dv_dv",
        Function::FrameVelocityDerivativesLocalWorldAligned,
        1,
    ),
    frame_entry(
        "acceleration_derivatives_local",
        "da_dq",
        Function::FrameAccelerationDerivativesLocal,
        0,
    ),
    frame_entry(
        "acceleration_derivatives_local",
        "da_dv",
        Function::FrameAccelerationDerivativesLocal,
        1,
    ),
    frame_entry(
        "acceleration_derivatives_local",
        "da_da",
        Function::FrameAccelerationDerivativesLocal,
        2,
    ),
    frame_entry(
        "acceleration_derivatives_local_world_aligned",
        "da_dq",
        Function::FrameAccelerationDerivativesLocalWorldAligned,
        0,
    ),
    frame_entry(
        "acceleration_derivatives_local_world_aligned",
        "da_dv",
        Function::FrameAccelerationDerivativesLocalWorldAligned,
        1,
    ),
    frame_entry(
        "acceleration_derivatives_local_world_aligned",
        "da_da",
        Function::FrameAccelerationDerivativesLocalWorldAligned,
        2,
    ),
    entry(
        "centroidal_dynamics_derivatives",
        "dh_dq",
        Function::CentroidalDynamicsDerivatives,
        0,
    ),
    entry(
        "centroidal_dynamics_derivatives",
        "dhdot_dq",
        Function::CentroidalDynamicsDerivatives,
        1,
    ),
    entry(
        "centroidal_dynamics_derivatives",
        "dhdot_dv",
        Function::CentroidalDynamicsDerivatives,
        2,
    ),
    entry(
        "centroidal_dynamics_derivatives",
        "dhdot_da",
        Function::CentroidalDynamicsDerivatives,
        3,
    ),
    entry(
        "contact_dynamics_derivatives",
        "ddq_dq",
        Function::ContactDynamicsDerivatives,
        0,
    ),
    entry(
        "contact_dynamics_derivatives",
        "ddq_dv",
        Function::ContactDynamicsDerivatives,
        1,
    ),
    entry(
        "contact_dynamics_derivatives",
        "ddq_dtau",
        Function::ContactDynamicsDerivatives,
        2,
    ),
    entry(
        "contact_dynamics_derivatives",
        "dlambda_dq",
        Function::ContactDynamicsDerivatives,
        3,
    ),
    entry(
        "contact_dynamics_derivatives",
        "dlambda_dv",
        Function::ContactDynamicsDerivatives,
        4,
    ),
    entry(
        "contact_dynamics_derivatives",
        "dlambda_dtau",
        Function::ContactDynamicsDerivatives,
        5,
    ),
    entry("impulse_dynamics", "dv_plus", Function::ImpulseDynamics, 0),
    entry("impulse_dynamics", "impulse", Function::ImpulseDynamics, 1),
    entry(
        "impulse_dynamics_derivatives",
        "dvplus_dq",
        Function::ImpulseDynamicsDerivatives,
        0,
    ),
    entry(
        "impulse_dynamics_derivatives",
        "dvplus_dv",
        Function::ImpulseDynamicsDerivatives,
        1,
    ),
    entry(
        "impulse_dynamics_derivatives",
        "dimpulse_dq",
        Function::ImpulseDynamicsDerivatives,
        2,
    ),
    entry(
        "impulse_dynamics_derivatives",
        "dimpulse_dv",
        Function::ImpulseDynamicsDerivatives,
        3,
    ),
];

/// The functions of the table that compute no quantity of the format, and
/// why: their inputs are no inputs of a state, or the format (Pinocchio's
/// references) has no key for them. With [`PARTS`], every function of the
/// table is in exactly one of the two (`cli/tests/function_table.rs`).
pub const OUTSIDE_FORMAT: &[(Function, &str)] = &[
    (
        Function::RneaDerivativesFext,
        "the format has no key for it",
    ),
    (
        Function::StepLinearization,
        "its inputs `u` and `h` are no inputs of a state",
    ),
    (
        Function::PoseError,
        "its input `target` is no input of a state",
    ),
    (Function::AbaDfext, "the format has no key for it"),
    (
        Function::ContactInverseDynamics,
        "its input `lambda` is no input of a state",
    ),
    (
        Function::CenterOfPressure,
        "its inputs `lambda` and `height` are no inputs of a state",
    ),
    (
        Function::ContactDriftDerivatives,
        "the format has no key for it",
    ),
    (
        Function::ContactInverseDynamicsDerivatives,
        "its input `lambda` is no input of a state",
    ),
    (
        Function::ContactStepLinearization,
        "its inputs `u` and `h` are no inputs of a state",
    ),
];

/// The key of the joint placements, a key of the reference files beside the
/// spec's, computed by the runtime (no function of the table returns them).
pub const OMI: &str = "omi";

/// The functions of [`PARTS`], each once, in table order.
pub fn functions() -> Vec<Function> {
    let mut out: Vec<Function> = Vec::new();
    for p in PARTS {
        if !out.contains(&p.function) {
            out.push(p.function);
        }
    }
    out
}

/// The quantities of a state in the order of the format: those of
/// [`PARTS`], each once, then [`OMI`].
pub fn quantities() -> Vec<&'static str> {
    let mut out: Vec<&str> = Vec::new();
    for p in PARTS {
        if !out.contains(&p.quantity) {
            out.push(p.quantity);
        }
    }
    out.push(OMI);
    out
}

/// The entries inside each link frame's object (`frames.NAME.<key>`), each
/// once, in the order of the format.
pub fn frame_quantities() -> Vec<&'static str> {
    let mut out: Vec<&str> = Vec::new();
    for key in PARTS
        .iter()
        .filter(|p| p.quantity == "frames")
        .filter_map(|p| p.key)
    {
        if !out.contains(&key) {
            out.push(key);
        }
    }
    out
}

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

fn vector(x: &[f64]) -> Value {
    Value::from(x.to_vec())
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
/// numbers of states differ, the inputs of a state differ or the reference
/// has no quantity (no states, or states of inputs only);
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
    // Nothing compared is not a pass.
    if groups.is_empty() {
        return Err(EvalError::Incomparable(format!(
            "the reference has no quantity to compare ({} states)",
            ref_states.len()
        )));
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
/// objects opened one level (the frames object two: frame name, then
/// quantity; three for a per-frame quantity that is an object itself,
/// `frames.NAME.velocity_derivatives_local.dv_dq`).
fn leaves(state: &Value) -> Vec<Leaf<'_>> {
    let mut out = Vec::new();
    let Some(entries) = state.as_object() else {
        return out;
    };
    for (key, value) in entries {
        // `fext` is the input of the whole-body extension's `*_fext` quantities.
        if INPUTS.contains(&key.as_str()) || key == "fext" || key == NONFINITE || key == REFINED {
            continue;
        }
        match (key.as_str(), value) {
            ("frames", Value::Object(frames)) => {
                for (frame, quantities) in frames {
                    for (name, v) in quantities.as_object().into_iter().flatten() {
                        if let Value::Object(parts) = v {
                            for (sub, v) in parts {
                                out.push(Leaf {
                                    group: format!("frames.{name}.{sub}"),
                                    path: vec![
                                        key.clone(),
                                        frame.clone(),
                                        name.clone(),
                                        sub.clone(),
                                    ],
                                    frame: Some(frame.clone()),
                                    value: v,
                                });
                            }
                            continue;
                        }
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
