//! Comparing two documents of the format within the spec tolerance, one
//! report per quantity of the reference.

use serde_json::Value;

use super::{EvalError, Header, State, INPUTS, NONFINITE, REFINED, TOLERANCE};

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
