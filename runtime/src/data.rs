//! The preallocated workspace of the algorithms (Pinocchio's `Data`).

use crate::spatial::{ArticulatedInertia, Force, Inertia, Motion, Transform};
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
    pub ia: Vec<ArticulatedInertia<S>>,
    /// Articulated-body bias forces (ABA).
    pub pa: Vec<Force<S>>,
    /// `U = IA S`, one column per joint dof (ABA).
    pub u: Vec<[Force<S>; 6]>,
    /// `D⁻¹ = (Sᵀ U)⁻¹` (ABA).
    pub d_inv: Vec<[[S; 6]; 6]>,
    /// `u = τ - Sᵀ pA` (ABA).
    pub u_bias: Vec<[S; 6]>,
    /// Joint torques `[nv]` (RNEA output).
    pub tau: Vec<S>,
    /// Joint accelerations `[nv]` (ABA output).
    pub ddq: Vec<S>,
    /// Joint-space inertia matrix `[nv x nv]`, row-major, full (CRBA output).
    pub mass_matrix: Vec<S>,
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
            ia: vec![ArticulatedInertia([[S::zero(); 6]; 6]); n],
            pa: vec![Force::zero(); n],
            u: vec![[Force::zero(); 6]; n],
            d_inv: vec![[[S::zero(); 6]; 6]; n],
            u_bias: vec![[S::zero(); 6]; n],
            tau: vec![S::zero(); model.nv],
            ddq: vec![S::zero(); model.nv],
            mass_matrix: vec![S::zero(); model.nv * model.nv],
        }
    }
}
