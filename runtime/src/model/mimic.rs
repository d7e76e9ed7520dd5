//! Mimic joints (URDF `<mimic>`), as Pinocchio's `buildModelFromUrdf(..,
//! mimic=True)`: a mimicking joint follows `θ_j = gain θ_i + offset` and has no
//! entry of its own in `q` or `v`.
//!
//! A mimicking joint keeps its kind, placement and body; its [`Joint::mimic`]
//! names the independent joint it follows, and its `idx_q` / `idx_v` are that
//! joint's. Chains (a mimic of a mimic, which Pinocchio 4.1.0 refuses) are
//! composed at load: `θ_k = g₂ (g₁ θ_i + o₁) + o₂`, so every [`Mimic`] points
//! at an independent joint. With the constant map `G [nv_full x nv]` (row of a
//! mimicking dof: its gain at its primary's column), every result equals the
//! model without mimics at `q_full = G q + offset`, `v_full = G v`,
//! `a_full = G a`, reduced: `τ = Gᵀ τ_full`, `M = Gᵀ M_full G`,
//! `J = J_full G`, `Ag = Ag_full G`; forward dynamics solves with that `M`.
//!
//! The algorithms read a mimicking joint's coordinates through
//! [`Joint::transform_at`], [`Joint::motion_at`] and [`Joint::subspace`] (its
//! motion subspace scaled by the gain) and add its columns into its primary's.
//! `aba`, `aba_fext` and `minverse` go through a dense `LDLᵀ` of `M` on a
//! mimic model (the tree-sparse recursions do not hold: a mimic couples
//! branches), and so do the solves of the ABA derivatives and of the contact
//! dynamics. The tangent-space derivatives run over the joints' own dofs (the
//! model without mimics) and are reduced by `G` at the end. Every algorithm
//! handles mimic joints; Pinocchio 4.1.0 refuses `aba`, `computeMinverse`,
//! the derivatives, the energies, `dccrba` and the regressor on such a model,
//! and its `getFrameJacobianTimeVariation` is wrong below a mimic joint (off
//! by O(1) on `tests/urdf/mimic/chain_flat.urdf`): those are checked here
//! against the model without mimics, identities and central differences
//! (`runtime/tests/mimic.rs`).

use super::{Joint, JointKind, Model};
use crate::error::ModelError;
use crate::spatial::{Force, Motion, Transform};
use crate::Scalar;

/// How a mimicking joint follows its primary: `θ = gain θ_primary + offset`
/// (rad or m), `θ̇ = gain θ̇_primary`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Mimic {
    /// The joint id of the independent joint followed (never itself a mimic).
    pub primary: usize,
    /// The URDF `multiplier` (1 when absent), composed along a chain.
    pub gain: f64,
    /// The URDF `offset` (0 when absent), composed along a chain.
    pub offset: f64,
}

impl Joint {
    /// The joint transform `parent_side_from_child_side` at the model's whole
    /// `q: [nq]`: the kind's transform at `q[idx_q..idx_q + nq]`, or at
    /// `gain q[idx_q] + offset` for a mimicking joint.
    ///
    /// # Panics
    /// When `q` is too short for the joint's indices: a building block of the
    /// algorithms, which check the lengths of their inputs first.
    pub fn transform_at<S: Scalar>(&self, q: &[S]) -> Transform<S> {
        match self.mimic {
            None => self.kind.transform(&q[self.q_range()]),
            Some(m) => self
                .kind
                .transform(&[S::constant(m.gain) * q[self.idx_q] + S::constant(m.offset)]),
        }
    }

    /// The joint velocity `S v` at the model's whole `v: [nv]` (or `a`): the
    /// kind's motion for its slice, `gain S v[idx_v]` for a mimicking joint.
    ///
    /// # Panics
    /// When `v` is too short for the joint's indices.
    pub fn motion_at<S: Scalar>(&self, v: &[S]) -> Motion<S> {
        match self.mimic {
            None => self.kind.motion(&v[self.v_range()]),
            Some(m) => self
                .kind
                .subspace_column::<S>(0)
                .scale(S::constant(m.gain) * v[self.idx_v]),
        }
    }

    /// Column `k` of the motion subspace with respect to the model's `v`:
    /// the kind's column, times the gain for a mimicking joint.
    pub fn subspace<S: Scalar>(&self, k: usize) -> Motion<S> {
        let s = self.kind.subspace_column(k);
        match self.mimic {
            None => s,
            Some(m) => s.scale(S::constant(m.gain)),
        }
    }

    /// `out[idx_v + k] += S_kᵀ f` for the joint's dofs, with [`Joint::subspace`]:
    /// a mimicking joint adds `gain Sᵀ f` to its primary's entry.
    ///
    /// # Panics
    /// When `out` is too short for the joint's indices.
    pub fn add_projected_force<S: Scalar>(&self, f: &Force<S>, out: &mut [S]) {
        if self.mimic.is_none() {
            let mut projected = [S::zero(); 6];
            self.kind.project_force(f, &mut projected[..self.kind.nv()]);
            for (o, p) in out[self.v_range()].iter_mut().zip(projected) {
                *o = *o + p;
            }
        } else {
            out[self.idx_v] = out[self.idx_v] + self.subspace::<S>(0).dot(f);
        }
    }
}

impl Model {
    /// `out = G x` over the own dofs ([`crate::Topology::own_dofs`], the
    /// model without mimics): a mimicking dof's entry is its gain times its
    /// primary's. `x: [nv]` (a velocity or an acceleration), `out: [nv_own]`.
    pub(crate) fn expand_to_own<S: Scalar>(&self, x: &[S], out: &mut [S]) {
        for (o, &(k, gain)) in out.iter_mut().zip(self.topology().own_to_v()) {
            *o = if gain == 1.0 {
                x[k]
            } else {
                S::constant(gain) * x[k]
            };
        }
    }

    /// `out = Gᵀ D G` for `D: [nv_own x nv_own]` over the own dofs, `out:
    /// [nv x nv]`, both row-major: a matrix of the model without mimics (a
    /// Jacobian of `τ`, or `M`) reduced to the model's dofs.
    pub(crate) fn reduce_from_own<S: Scalar>(&self, d: &[S], out: &mut [S]) {
        let own_to_v = self.topology().own_to_v();
        let (n, nv) = (own_to_v.len(), self.nv);
        out.fill(S::zero());
        for (r, &(rv, gr)) in own_to_v.iter().enumerate() {
            for (c, &(cv, gc)) in own_to_v.iter().enumerate() {
                let x = d[r * n + c];
                let x = if gr * gc == 1.0 {
                    x
                } else {
                    S::constant(gr * gc) * x
                };
                out[rv * nv + cv] = out[rv * nv + cv] + x;
            }
        }
    }

    /// `out = Gᵀ x` for a force-like `x: [nv_own]` (`τ`), `out: [nv]`.
    pub(crate) fn reduce_vector_from_own<S: Scalar>(&self, x: &[S], out: &mut [S]) {
        out.fill(S::zero());
        for (&x, &(k, gain)) in x.iter().zip(self.topology().own_to_v()) {
            out[k] = out[k] + S::constant(gain) * x;
        }
    }

    /// Whether some joint mimics another (a model loaded with `mimic`).
    pub fn has_mimic(&self) -> bool {
        self.joints.iter().any(|j| j.mimic.is_some())
    }

    /// Builds the model of a URDF document as [`Model::from_urdf_str`] does,
    /// with every `<mimic>` tag modelled (Pinocchio's
    /// `buildModelFromUrdf(.., mimic=True)`): the mimicking joint follows
    /// `θ = multiplier θ_primary + offset` and leaves `q`, `v` and the limit
    /// and armature vectors. Without mimic tags, the model of
    /// [`Model::from_urdf_str`].
    ///
    /// # Errors
    /// Every error of [`Model::from_urdf_str`]; [`ModelError::InvalidSetting`]
    /// naming the joint when a mimic names an unknown or fixed joint, itself,
    /// a joint that comes later in joint order (Pinocchio refuses it too),
    /// or when either joint is not a revolute or prismatic joint (the
    /// relation is affine in `q` for these only), or a multiplier or offset
    /// is not finite.
    pub fn from_urdf_str_mimic(urdf: &str, floating_base: bool) -> Result<Model, ModelError> {
        let mut model = Self::from_urdf_str(urdf, floating_base)?;
        let reduced = super::document::reduce(urdf)?;
        let robot =
            urdf_rs::read_from_string(&reduced).map_err(|e| ModelError::Parse(e.to_string()))?;
        let tags: Vec<(String, String, f64, f64)> = robot
            .joints
            .iter()
            .filter_map(|j| {
                j.mimic.as_ref().map(|m| {
                    (
                        j.name.clone(),
                        m.joint.clone(),
                        m.multiplier.unwrap_or(1.0),
                        m.offset.unwrap_or(0.0),
                    )
                })
            })
            .collect();
        model.apply_mimics(&tags)?;
        Ok(model)
    }

    /// Builds the model of a URDF or MJCF document ([`Model::from_description_str`])
    /// with the URDF's mimic joints ([`Model::from_urdf_str_mimic`]).
    ///
    /// # Errors
    /// Those of [`Model::from_urdf_str_mimic`]; [`ModelError::InvalidSetting`]
    /// for an MJCF document, which has no `<mimic>` (MuJoCo's joint equality
    /// constraints are not read).
    pub fn from_description_str_mimic(
        text: &str,
        floating_base: bool,
    ) -> Result<Model, ModelError> {
        if super::mjcf::is_mjcf(text) {
            return Err(ModelError::InvalidSetting {
                item: "mimic".into(),
                reason: "an MJCF model has no <mimic> joints (MuJoCo's joint equality constraints are not read); mimic applies to URDF".into(),
            });
        }
        Self::from_urdf_str_mimic(text, floating_base)
    }

    /// Reads and builds the model of a URDF file with its mimic joints; see
    /// [`Model::from_urdf_str_mimic`].
    ///
    /// # Errors
    /// [`ModelError::Parse`] when the file cannot be read, and every error of
    /// [`Model::from_urdf_str_mimic`].
    pub fn from_urdf_file_mimic(
        path: impl AsRef<std::path::Path>,
        floating_base: bool,
    ) -> Result<Model, ModelError> {
        let path = path.as_ref();
        let text = super::read_file(path)?;
        Self::from_urdf_str_mimic(&text, floating_base)
    }

    /// Turns the joints named in `tags` (mimicking joint, primary joint,
    /// multiplier, offset) into mimics and renumbers `q` and `v`.
    fn apply_mimics(&mut self, tags: &[(String, String, f64, f64)]) -> Result<(), ModelError> {
        let invalid = |joint: &str, reason: String| ModelError::InvalidSetting {
            item: format!("mimic of joint `{joint}`"),
            reason,
        };
        let one_dof =
            |k: &JointKind| matches!(k, JointKind::Revolute { .. } | JointKind::Prismatic { .. });
        let mut order: Vec<(usize, usize, f64, f64)> = Vec::new();
        for (name, primary, gain, offset) in tags {
            // A mimic on a fixed joint: nothing moves, nothing to model.
            let Some(id) = self.joint_id(name) else {
                continue;
            };
            let p = self.joint_id(primary).filter(|&p| p > 0).ok_or_else(|| {
                invalid(
                    name,
                    format!("`{primary}` is not a moving joint of the model"),
                )
            })?;
            if p >= id {
                return Err(invalid(
                    name,
                    format!("`{primary}` does not come before it in joint order (Pinocchio refuses it too)"),
                ));
            }
            if !one_dof(&self.joints[id].kind) || !one_dof(&self.joints[p].kind) {
                return Err(invalid(
                    name,
                    format!("`{name}` and `{primary}` must be revolute or prismatic joints"),
                ));
            }
            if !(gain.is_finite() && offset.is_finite()) {
                return Err(invalid(
                    name,
                    format!("multiplier {gain} and offset {offset} must be finite"),
                ));
            }
            order.push((id, p, *gain, *offset));
        }
        // Primaries precede their mimics: composing in joint order resolves chains.
        order.sort_by_key(|&(id, ..)| id);
        for (id, p, gain, offset) in order {
            self.joints[id].mimic = Some(match self.joints[p].mimic {
                None => Mimic {
                    primary: p,
                    gain,
                    offset,
                },
                Some(m) => Mimic {
                    primary: m.primary,
                    gain: gain * m.gain,
                    offset: gain * m.offset + offset,
                },
            });
        }
        let (mut nq, mut nv) = (0, 0);
        let (mut lower, mut upper, mut velocity, mut effort) =
            (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for i in 1..self.njoints() {
            let joint = &self.joints[i];
            if let Some(m) = joint.mimic {
                let (q, v) = (self.joints[m.primary].idx_q, self.joints[m.primary].idx_v);
                self.joints[i].idx_q = q;
                self.joints[i].idx_v = v;
                continue;
            }
            let (q, v) = (joint.q_range(), joint.v_range());
            lower.extend_from_slice(&self.lower_position_limit[q.clone()]);
            upper.extend_from_slice(&self.upper_position_limit[q]);
            velocity.extend_from_slice(&self.velocity_limit[v.clone()]);
            effort.extend_from_slice(&self.effort_limit[v]);
            let joint = &mut self.joints[i];
            joint.idx_q = nq;
            joint.idx_v = nv;
            nq += joint.kind.nq();
            nv += joint.kind.nv();
        }
        self.nq = nq;
        self.nv = nv;
        self.lower_position_limit = lower;
        self.upper_position_limit = upper;
        self.velocity_limit = velocity;
        self.effort_limit = effort;
        self.armature = vec![0.0; nv];
        // `q` and `v` are renumbered: the tree's dofs and fingerprint with them.
        self.finish_tree();
        Ok(())
    }
}
