//! The documents of the format: the `model` header, the inputs of a state
//! and a file of states, read from JSON and written back.

use rbdgen_runtime::{ContactKind, Force, Model};
use serde_json::{Map, Value};

use super::EvalError;

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
    /// [`EvalError::Format`] naming every missing input of the state at
    /// once (of [`INPUTS`](super::INPUTS)), or a non-numeric entry.
    pub fn from_json(v: &Value, index: usize) -> Result<Self, EvalError> {
        let missing: Vec<String> = super::INPUTS
            .iter()
            .filter(|name| v.get(**name).is_none())
            .map(|name| format!("`{name}`"))
            .collect();
        if !missing.is_empty() {
            let all: Vec<String> = super::INPUTS.iter().map(|n| format!("`{n}`")).collect();
            return Err(EvalError::Format {
                path: format!("states[{index}]"),
                reason: format!(
                    "missing {} (a state needs the inputs {}; docs/eval-format.md)",
                    missing.join(", "),
                    all.join(", ")
                ),
            });
        }
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

    /// The inputs as JSON entries: those of [`INPUTS`](super::INPUTS), and `fext` when present.
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

    /// The inputs by name, in the order of [`INPUTS`](super::INPUTS).
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
    /// naming a missing or mistyped field, or an empty `states`.
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
            .collect::<Result<Vec<_>, _>>()?;
        if states.is_empty() {
            return Err(EvalError::Format {
                path: "states".into(),
                reason: "empty: there is nothing to evaluate".into(),
            });
        }
        Ok(Self { header, states })
    }
}

/// A vector as a JSON array.
pub(super) fn vector(x: &[f64]) -> Value {
    Value::from(x.to_vec())
}
