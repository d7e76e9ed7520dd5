//! The preallocated workspace of the algorithms (Pinocchio's `Data`).

use crate::error::DataMismatch;
use crate::spatial::{Force, Inertia, Matrix6, Motion, Transform, Vector3};
use crate::workspace::{Bias, MassSolve};
use crate::{Model, Scalar};

/// Workspace for one model and one scalar type, allocated once by [`Data::new`];
/// the algorithms write into it and return views of their results. Per-joint
/// vectors are indexed by joint id (0 = universe).
#[derive(Clone, Debug)]
pub struct Data<S> {
    /// `parent_from_joint` at the current q (Pinocchio's `liMi`).
    pub li_mi: Vec<Transform<S>>,
    /// `world_from_joint` (Pinocchio's `oMi`).
    pub o_mi: Vec<Transform<S>>,
    /// `world_from_frame` for every frame (Pinocchio's `oMf`).
    pub o_mf: Vec<Transform<S>>,
    /// Spatial velocity of each body in its joint frame.
    pub v: Vec<Motion<S>>,
    /// Spatial acceleration of each body in its joint frame (gravity included in RNEA and ABA).
    pub a: Vec<Motion<S>>,
    /// Spatial force transmitted by each joint, in its frame.
    pub f: Vec<Force<S>>,
    /// Velocity-product acceleration `v × vJ` (ABA).
    pub c: Vec<Motion<S>>,
    /// Composite rigid-body inertias (CRBA).
    pub ycrb: Vec<Inertia<S>>,
    /// Articulated-body inertias (ABA).
    pub ia: Vec<Matrix6<S>>,
    /// Articulated-body bias forces (ABA).
    pub pa: Vec<Force<S>>,
    /// `U = IA S`, one column per joint dof (ABA).
    pub u: Vec<[Force<S>; 6]>,
    /// The `LDLᵀ` factors of `D = Sᵀ U` (+ armature) (ABA): `L` (unit lower
    /// triangular) strictly below the diagonal, the reciprocal pivots `1/d_j`
    /// on it, the first `nv` rows and columns of the joint's dofs used; for a
    /// one-dof joint, `D⁻¹` itself.
    pub d_ldl: Vec<Matrix6<S>>,
    /// `u = τ - Sᵀ pA` (ABA).
    pub u_bias: Vec<[S; 6]>,
    /// Joint torques `[nv]` (RNEA output).
    pub tau: Vec<S>,
    /// Joint accelerations `[nv]` (ABA output).
    pub ddq: Vec<S>,
    /// Joint-space inertia matrix `[nv x nv]`, row-major, full (CRBA output).
    pub mass_matrix: Vec<S>,
    /// `M(q)⁻¹ [nv x nv]`, row-major, full (minverse output; Pinocchio's `Minv`).
    pub minv: Vec<S>,
    /// The tree-sparse `LᵀDL` factorisation of M (Featherstone 2008 §6.5),
    /// `[nv x nv]` row-major: D on the diagonal and, after minverse, `L⁻¹`
    /// strictly below it (zero outside the ancestor pattern).
    pub ltdl: Vec<S>,
    /// Joint Jacobian in the world frame, one column per dof `[nv]`: the motion
    /// `world_from_joint · S` at the world origin (Pinocchio's `J`).
    pub j: Vec<Motion<S>>,
    /// Spatial velocity of each body in the world frame, at the world origin
    /// (Pinocchio's `ov`).
    pub ov: Vec<Motion<S>>,
    /// Composite rigid-body inertia of each subtree in the world frame; entry 0
    /// is the whole robot, links welded to the universe excluded (Pinocchio's `oYcrb`).
    pub oycrb: Vec<Inertia<S>>,
    /// Time derivative of `oycrb` along `v` (mass rate zero), in the world frame.
    pub doycrb: Vec<Inertia<S>>,
    /// Centre of mass of the moving bodies in the world frame, m (Pinocchio's `com[0]`).
    pub com: Vector3<S>,
    /// Jacobian of the centre of mass `[3 x nv]`, row-major (Pinocchio's `Jcom`).
    pub jcom: Vec<S>,
    /// Centroidal momentum matrix `Ag [6 x nv]`, row-major, rows `[linear; angular]`,
    /// about the centre of mass with world axes (Pinocchio's `Ag`).
    pub ag: Vec<S>,
    /// Centroidal momentum `hg = Ag v` (Pinocchio's `hg`).
    pub hg: Force<S>,
    /// Time derivative of `Ag` `[6 x nv]`, row-major (Pinocchio's `dAg`).
    pub dag: Vec<S>,
    /// The inertia of each joint's body `[njoints]` in its joint frame, as the
    /// dynamics algorithms read it: the model's [`crate::Joint::inertia`] as
    /// built by [`Data::new`], changed only by
    /// [`crate::algorithms::set_link_parameters`] (a payload as a run-time input;
    /// Pinocchio keeps these in `model.inertias`).
    pub inertias: Vec<Inertia<S>>,
    /// Time derivative of [`Data::j`] along `v`, one world-frame column per dof
    /// (Pinocchio's `dJ`, from `computeJointJacobiansTimeVariation`).
    pub dj: Vec<Motion<S>>,
    /// The workspace of the RNEA derivatives
    /// ([`crate::algorithms::rnea_derivatives`] and the functions built on it).
    pub derivatives: DerivativeData<S>,
    /// What the workspace was built for, as [`Data::check`] compares it.
    built_for: BuiltFor,
}

/// The workspace of the RNEA derivatives (Pinocchio keeps these in `Data`
/// as `oMi`, `ov`, `oa`, `oYcrb`, `doYcrb`, `of`, `J`, `dJ`, `dVdq`, `dAdq`,
/// `dAdv`), in the axes of each body's tree root (see
/// [`crate::algorithms::rnea_derivatives`]). Per-body vectors are indexed by
/// joint id; per-dof vectors by own dof, the dofs of the model without its
/// mimic joints (the model's dofs when it has none).
#[derive(Clone, Debug)]
pub struct DerivativeData<S> {
    /// `root_from_body` of each body.
    pub(crate) root_from_body: Vec<Transform<S>>,
    /// Spatial velocity `v_k` of each body, root axes.
    pub(crate) v: Vec<Motion<S>>,
    /// Spatial acceleration `a_k` of each body, root axes; gravity included
    /// (the universe accelerating at `-g`) unless the pass runs without it.
    pub(crate) a: Vec<Motion<S>>,
    /// Composite inertia `Y_i` of each subtree, root axes.
    pub(crate) ycrb: Vec<Inertia<S>>,
    /// Composite `B_i` of each subtree (the derivative of the bias force).
    pub(crate) bias: Vec<Bias<S>>,
    /// Composite force `F_i` of each subtree (Pinocchio's `of`), root axes.
    pub(crate) f: Vec<Force<S>>,
    /// Body momenta `I_k v_k` in root axes, summed over each subtree by the
    /// backward pass (the centroidal momentum's derivatives read them).
    pub(crate) momentum: Vec<Force<S>>,
    /// The Jacobian column `J_c` of each dof, root axes.
    pub(crate) j: Vec<Motion<S>>,
    /// `dV_c = v_λ × J_c` (Pinocchio's `dVdq`).
    pub(crate) dv_dq: Vec<Motion<S>>,
    /// `dA_c = a_λ × J_c + v_λ × dV_c` (Pinocchio's `dAdq`).
    pub(crate) da_dq: Vec<Motion<S>>,
    /// `u_c = (v_λ + v_j) × J_c` (Pinocchio's `dAdv`).
    pub(crate) da_dv: Vec<Motion<S>>,
    /// `g_c = J_c ×* F_j + Y_j dA_c + B_j dV_c`: column c of `∂τ/∂q` in the
    /// rows above its joint j is `J_rᵀ g_c` (zero at a root joint).
    pub(crate) g: Vec<Force<S>>,
    /// `h_c = Y_j u_c + B_j J_c`: the same for `∂τ/∂v`.
    pub(crate) h: Vec<Force<S>>,
    /// `v` and `a` over the own dofs (mimic models only).
    pub(crate) v_own: Vec<S>,
    /// See `v_own`.
    pub(crate) a_own: Vec<S>,
    /// `[nv]` zeros: the acceleration of the mass-matrix pass.
    pub(crate) zeros: Vec<S>,
    /// `[nv]` scratch: `τ - h` of the ABA derivatives.
    pub(crate) rhs: Vec<S>,
    /// `τ` over the own dofs.
    pub(crate) tau_own: Vec<S>,
    /// `∂τ/∂q`, `∂τ/∂v`, `M` over the own dofs, row-major.
    pub(crate) dtau_dq_own: Vec<S>,
    /// See `dtau_dq_own`.
    pub(crate) dtau_dv_own: Vec<S>,
    /// See `dtau_dq_own`.
    pub(crate) mass_own: Vec<S>,
    /// `∂τ/∂q` and `∂τ/∂v` `[nv x nv]`, row-major (Pinocchio's `dtau_dq`,
    /// `dtau_dv`); `M` goes to [`Data::mass_matrix`].
    pub(crate) dtau_dq: Vec<S>,
    /// See `dtau_dq`.
    pub(crate) dtau_dv: Vec<S>,
    /// The support of the joint of the backward step, as
    /// [`crate::Topology::support`] writes it.
    pub(crate) support: Vec<usize>,
    /// The scratch of the tree-sparse solves with `M` of the ABA derivatives.
    pub(crate) solve: MassSolve<S>,
}

impl<S: Scalar> DerivativeData<S> {
    fn new(model: &Model) -> Self {
        let (n, nv) = (model.njoints(), model.nv);
        let own = model.topology().own_to_v().len();
        let mimic = model.has_mimic();
        let per_own = |x: usize| if mimic { x } else { 0 };
        Self {
            root_from_body: vec![Transform::identity(); n],
            v: vec![Motion::zero(); n],
            a: vec![Motion::zero(); n],
            ycrb: vec![Inertia::zero(); n],
            bias: vec![Bias::zero(); n],
            f: vec![Force::zero(); n],
            momentum: vec![Force::zero(); n],
            j: vec![Motion::zero(); own],
            dv_dq: vec![Motion::zero(); own],
            da_dq: vec![Motion::zero(); own],
            da_dv: vec![Motion::zero(); own],
            g: vec![Force::zero(); own],
            h: vec![Force::zero(); own],
            v_own: vec![S::zero(); per_own(own)],
            a_own: vec![S::zero(); per_own(own)],
            zeros: vec![S::zero(); nv],
            rhs: vec![S::zero(); nv],
            tau_own: vec![S::zero(); own],
            dtau_dq_own: vec![S::zero(); own * own],
            dtau_dv_own: vec![S::zero(); own * own],
            mass_own: vec![S::zero(); own * own],
            dtau_dq: vec![S::zero(); nv * nv],
            dtau_dv: vec![S::zero(); nv * nv],
            support: Vec::with_capacity(n),
            solve: MassSolve::new(nv),
        }
    }
}

/// The sizes and the fingerprint of the model a [`Data`] was built for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct BuiltFor {
    nq: usize,
    nv: usize,
    njoints: usize,
    nframes: usize,
    fingerprint: u64,
}

impl BuiltFor {
    fn of(model: &Model) -> Self {
        Self {
            nq: model.nq,
            nv: model.nv,
            njoints: model.njoints(),
            nframes: model.frames.len(),
            fingerprint: model.topology().fingerprint(),
        }
    }
}

impl core::fmt::Display for BuiltFor {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "nq = {}, nv = {}, {} joints, {} frames, fingerprint {:016x}",
            self.nq, self.nv, self.njoints, self.nframes, self.fingerprint
        )
    }
}

impl<S: Scalar> Data<S> {
    /// The workspace for `model`.
    pub fn new(model: &Model) -> Self {
        let n = model.njoints();
        Self {
            li_mi: vec![Transform::identity(); n],
            o_mi: vec![Transform::identity(); n],
            o_mf: vec![Transform::identity(); model.frames.len()],
            v: vec![Motion::zero(); n],
            a: vec![Motion::zero(); n],
            f: vec![Force::zero(); n],
            c: vec![Motion::zero(); n],
            ycrb: vec![Inertia::zero(); n],
            ia: vec![Matrix6::zeros(); n],
            pa: vec![Force::zero(); n],
            u: vec![[Force::zero(); 6]; n],
            d_ldl: vec![Matrix6::zeros(); n],
            u_bias: vec![[S::zero(); 6]; n],
            tau: vec![S::zero(); model.nv],
            ddq: vec![S::zero(); model.nv],
            mass_matrix: vec![S::zero(); model.nv * model.nv],
            minv: vec![S::zero(); model.nv * model.nv],
            ltdl: vec![S::zero(); model.nv * model.nv],
            j: vec![Motion::zero(); model.nv],
            ov: vec![Motion::zero(); n],
            oycrb: vec![Inertia::zero(); n],
            doycrb: vec![Inertia::zero(); n],
            com: Vector3::zeros(),
            jcom: vec![S::zero(); 3 * model.nv],
            ag: vec![S::zero(); 6 * model.nv],
            hg: Force::zero(),
            dag: vec![S::zero(); 6 * model.nv],
            inertias: model
                .joints
                .iter()
                .map(|j| Inertia::constant(&j.inertia))
                .collect(),
            dj: vec![Motion::zero(); model.nv],
            derivatives: DerivativeData::new(model),
            built_for: BuiltFor::of(model),
        }
    }

    /// Whether this workspace was built for `model`: a model loaded from the
    /// same description (or a clone of it) with the same sizes, tree and body
    /// inertias ([`crate::Topology::fingerprint`]). Settings read at every
    /// call (armature, contacts, limits) may differ. Every algorithm taking a
    /// `Data` makes this check first (a few integer comparisons) and returns
    /// it as [`crate::InputError::Data`] when it fails.
    ///
    /// # Errors
    /// [`DataMismatch`] giving both sizes and fingerprints.
    pub fn check(&self, model: &Model) -> Result<(), DataMismatch> {
        let model = BuiltFor::of(model);
        if self.built_for == model {
            Ok(())
        } else {
            Err(DataMismatch {
                data: self.built_for.to_string(),
                model: model.to_string(),
            })
        }
    }
}
