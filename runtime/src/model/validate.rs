//! Physical checks of a model: link inertias that no body can have, moving
//! joints that carry no mass at all, and pairs of joints that move the same
//! bodies along the same directions (both make the mass matrix singular).
//!
//! # Policy on inertias
//!
//! Pinocchio accepts any symmetric rotational inertia; real URDFs hold values
//! that are only approximately physical. The loader therefore refuses:
//!
//! - a negative mass (in [`Model::from_urdf_str`], as before);
//! - a rotational inertia with a negative principal moment beyond
//!   `TOLERANCE` times the largest principal moment of any link of the
//!   robot: such an inertia can make the mass matrix indefinite. Rounding noise
//!   (principal moments of −1e-20 kg·m² in real files) and negligible
//!   negative parts (−3.5e-8 kg·m² on a 1 mg antenna of a robot whose trunk has
//!   0.5 kg·m²) pass.
//!
//! The triangle inequality of principal moments (`I1 + I2 ≥ I3`, a rigid mass
//! distribution cannot violate it) is enforced only by
//! [`Model::from_urdf_str_strict`]: many published URDFs violate it by far more
//! than rounding (PR2's sensor mount has moments 0.001, 0.001, 0.01 kg·m²),
//! Pinocchio accepts them, and such an inertia is still positive definite, so
//! every algorithm stays well defined. [`Model::physical_warnings`] lists them
//! (and a massless moving subtree) on a loaded model, for the code generator
//! and the command line to report.

use super::{FrameKind, JointKind, Model};
use crate::error::ModelError;
use crate::spatial::Inertia;

/// Relative tolerance of the inertia checks, against the largest principal
/// moment of any link of the robot.
pub const TOLERANCE: f64 = 1e-6;

impl Model {
    /// What is physically impossible in this model although Pinocchio accepts
    /// it, and what its URDF held that the loader read past, as the errors
    /// that a strict reading would give, in this order:
    ///
    /// - [`ModelError::UnknownElement`] for each element or attribute of the
    ///   URDF's `<robot>`, links, joints and inertials that the format does
    ///   not have (a misspelled `<inertal>` leaves the link massless), in
    ///   document order; extension tags (`<gazebo>`, `<transmission>`,
    ///   namespaced elements) are not reported; for an MJCF model, each one
    ///   that MuJoCo does not define in the elements rbdgen reads
    ///   (`<body>`, `<joint>`, `<geom>`, ...; see [`crate::model::mjcf`]);
    /// - [`ModelError::InvalidInertia`] for each link frame whose rotational
    ///   inertia about its centre of mass violates the triangle inequality of
    ///   principal moments `I1 + I2 ≥ I3` (beyond [`TOLERANCE`] times the
    ///   largest principal moment of any link), which no rigid body has
    ///   (example-robot-data holds nine such robots); the model stays well
    ///   defined (the inertia is still positive semi-definite);
    /// - [`ModelError::MasslessSubtree`] from [`Model::check_massless_subtrees`]:
    ///   a singular mass matrix, on which ABA and `M⁻¹` divide by zero;
    /// - [`ModelError::RedundantJoints`] from [`Model::check_redundant_joints`]:
    ///   two joints that move the same bodies along the same directions (two
    ///   free-flyers in series), a mass matrix singular by its structure.
    ///
    /// Empty for a physical model. Code generation reports these as warnings,
    /// or refuses the model with `strict`.
    pub fn physical_warnings(&self) -> Vec<ModelError> {
        let moments: Vec<(&str, [f64; 3])> = self
            .body_frames()
            .map(|(_, f)| (f.name.as_str(), moments_at_com(&f.inertia)))
            .collect();
        let scale = moments
            .iter()
            .flat_map(|(_, m)| m.iter().map(|x| x.abs()))
            .fold(0.0, f64::max);
        let tolerance = TOLERANCE * scale;
        let mut warnings: Vec<ModelError> = self.unknown.iter().map(|u| u.to_error()).collect();
        warnings.extend(
            moments
                .into_iter()
                .filter(|(_, [a, b, c])| a + b < c - tolerance)
                .map(|(link, [a, b, c])| ModelError::InvalidInertia {
                    link: link.to_string(),
                    reason: triangle_reason(a, b, c),
                }),
        );
        warnings.extend(self.check_massless_subtrees().err());
        warnings.extend(self.check_redundant_joints().err());
        warnings
    }

    /// Checks that no two joints move the same bodies along the same
    /// directions: a moving joint whose own body (with the links welded to
    /// it) has no mass, and whose only child joint adds no direction of
    /// motion that it lacks, or only some: the columns of both motion
    /// subspaces, in the upper joint's frame, are linearly dependent. A
    /// combination of the two velocities then moves no body, so the mass
    /// matrix is singular whatever the masses below (a structural
    /// singularity, unlike [`Model::check_massless_subtrees`]'s). The case it
    /// is for: `floating_base` adds a free-flyer above a root that a joint of
    /// the file already frees (a massless URDF `world` link joined to the
    /// base by a `floating` joint; an MJCF first body with a `<freejoint>`
    /// or joints of its own): two free-flyers in series. Two parallel
    /// revolute joints on one axis with a massless link between them are
    /// another. Mimic joints are left out.
    ///
    /// # Errors
    /// [`ModelError::RedundantJoints`] naming the first such pair (in joint
    /// order), with a hint when the upper joint is the free-flyer
    /// `root_joint` that `floating_base` adds.
    pub fn check_redundant_joints(&self) -> Result<(), ModelError> {
        let n = self.njoints();
        let mut children = vec![Vec::new(); n];
        for i in 1..n {
            children[self.joints[i].parent].push(i);
        }
        for (i, joint) in self.joints.iter().enumerate().skip(1) {
            let &[child] = children[i].as_slice() else {
                continue;
            };
            let below = &self.joints[child];
            if joint.inertia != Inertia::zero() || joint.mimic.is_some() || below.mimic.is_some() {
                continue;
            }
            let columns = (0..joint.kind.nv())
                .map(|k| joint.kind.subspace_column::<f64>(k))
                .chain((0..below.kind.nv()).map(|k| {
                    below
                        .placement
                        .act_motion(&below.kind.subspace_column::<f64>(k))
                }))
                .map(|m| m.to_array());
            if !independent(columns) {
                let hint =
                    if i == 1 && joint.name == "root_joint" && joint.kind == JointKind::FreeFlyer {
                        format!(
                        "; `floating_base` (--floating-base) added the free-flyer `root_joint` \
                         above a root that `{}` already moves: leave it out",
                        below.name
                    )
                    } else {
                        String::new()
                    };
                return Err(ModelError::RedundantJoints {
                    joint: joint.name.clone(),
                    child: below.name.clone(),
                    hint,
                });
            }
        }
        Ok(())
    }

    /// Checks that every moving joint carries some mass or inertia: a joint
    /// whose whole subtree (its body, the links welded to it and every body
    /// below) has zero mass and zero inertia has a zero row and column in the
    /// mass matrix, which is then singular; ABA divides by zero there and
    /// returns non-finite accelerations. Links welded by fixed joints with no
    /// moving joint above them inside the subtree (a massless end effector on
    /// a massive body) are fine. On a model with mimic joints, a dof counts
    /// as carried when its joint or any joint mimicking it (with a non-zero
    /// gain) has mass or inertia in its subtree.
    ///
    /// The loader does not call this (Pinocchio accepts such models, and
    /// kinematics, RNEA and CRBA are defined for them); code generation calls it
    /// before emitting functions that invert the mass matrix.
    ///
    /// # Errors
    /// [`ModelError::MasslessSubtree`] naming the first such joint (in joint
    /// order) and its link.
    pub fn check_massless_subtrees(&self) -> Result<(), ModelError> {
        let n = self.njoints();
        let mut massive: Vec<bool> = self
            .joints
            .iter()
            .map(|j| j.inertia != Inertia::zero())
            .collect();
        for i in (1..n).rev() {
            let parent = self.joints[i].parent;
            massive[parent] |= massive[i];
        }
        // A dof of `v` is carried by its joint and by every joint mimicking it
        // with a non-zero gain (`M = Gᵀ M_full G`).
        let mut carried = vec![false; self.nv];
        for (joint, &m) in self.joints.iter().zip(&massive) {
            if m && joint.mimic.is_none_or(|mimic| mimic.gain != 0.0) {
                carried[joint.idx_v..joint.idx_v + joint.kind.nv()].fill(true);
            }
        }
        let uncarried = |i: usize| {
            let joint = &self.joints[i];
            let dofs = joint.idx_v..joint.idx_v + joint.kind.nv();
            joint.mimic.is_none() && dofs.into_iter().any(|k| !carried[k])
        };
        match (1..n).find(|&i| uncarried(i)) {
            None => Ok(()),
            Some(i) => {
                let link = self
                    .frames
                    .iter()
                    .find(|f| f.kind == FrameKind::Body && f.parent_joint == i)
                    .map_or_else(String::new, |f| f.name.clone());
                Err(ModelError::MasslessSubtree {
                    joint: self.joints[i].name.clone(),
                    link,
                })
            }
        }
    }
}

/// Whether the 6-vectors `columns` are linearly independent (Gram–Schmidt; a
/// column is dependent when less than 1e-9 of its length is left after
/// removing its projections on the columns before it).
fn independent(columns: impl Iterator<Item = [f64; 6]>) -> bool {
    let mut basis: Vec<[f64; 6]> = Vec::new();
    for column in columns {
        let norm = |x: &[f64; 6]| x.iter().map(|a| a * a).sum::<f64>().sqrt();
        let length = norm(&column);
        let mut rest = column;
        for b in &basis {
            let dot: f64 = rest.iter().zip(b).map(|(a, b)| a * b).sum();
            for (r, b) in rest.iter_mut().zip(b) {
                *r -= dot * b;
            }
        }
        let left = norm(&rest);
        if left <= 1e-9 * length {
            return false;
        }
        basis.push(rest.map(|r| r / left));
    }
    true
}

/// The inertia checks of every link; see the module documentation. Runs after
/// the builder, which has refused non-finite values and negative masses.
pub(super) fn link_inertias(robot: &urdf_rs::Robot, strict: bool) -> Result<(), ModelError> {
    let moments: Vec<[f64; 3]> = robot
        .links
        .iter()
        .map(|l| principal_moments(&l.inertial.inertia))
        .collect();
    let scale = moments
        .iter()
        .flat_map(|m| m.iter().map(|x| x.abs()))
        .fold(0.0, f64::max);
    let tolerance = TOLERANCE * scale;
    for (link, &[a, b, c]) in robot.links.iter().zip(&moments) {
        let invalid = |reason: String| ModelError::InvalidInertia {
            link: link.name.clone(),
            reason,
        };
        if a < -tolerance {
            return Err(invalid(format!(
                "not positive semi-definite: principal moments {a:e}, {b:e}, {c:e} kg·m²"
            )));
        }
        if strict && a + b < c - tolerance {
            return Err(invalid(triangle_reason(a, b, c)));
        }
    }
    Ok(())
}

/// Why principal moments `a ≤ b ≤ c` are refused by the triangle inequality,
/// each to 12 significant digits (the eigenvalues of a diagonal inertia
/// read as written, `1e-3` and not `1.0000000000000009e-3`).
fn triangle_reason(a: f64, b: f64, c: f64) -> String {
    let [a, b, c] = [a, b, c].map(|x| format!("{x:.11e}").parse::<f64>().unwrap_or(x));
    format!(
        "principal moments {a:e}, {b:e}, {c:e} kg·m² violate the triangle \
         inequality ({a:e} + {b:e} < {c:e})"
    )
}

/// The eigenvalues of a URDF rotational inertia, ascending (kg·m²).
fn principal_moments(t: &urdf_rs::Inertia) -> [f64; 3] {
    symmetric_eigenvalues([t.ixx, t.ixy, t.ixz, t.iyy, t.iyz, t.izz])
}

/// The principal moments of an inertia about its centre of mass, ascending
/// (kg·m²): `I_c = I_o − (|h|² 1 − h hᵀ) / m` with the first moment `h = m c`.
fn moments_at_com(inertia: &Inertia<f64>) -> [f64; 3] {
    let (m, h, i) = (inertia.mass, inertia.first_moment.0, inertia.rotational.0);
    let shift = |r: usize, c: usize| {
        if m > 0.0 {
            (if r == c {
                h.iter().map(|x| x * x).sum()
            } else {
                0.0
            } - h[r] * h[c])
                / m
        } else {
            0.0
        }
    };
    let at = |r: usize, c: usize| i[r][c] - shift(r, c);
    symmetric_eigenvalues([at(0, 0), at(0, 1), at(0, 2), at(1, 1), at(1, 2), at(2, 2)])
}

/// The eigenvalues, ascending, of the symmetric matrix with upper triangle
/// `[xx, xy, xz, yy, yz, zz]`. The matrix is scaled to entries of at most 1
/// first, so that no intermediate overflows.
fn symmetric_eigenvalues(entries: [f64; 6]) -> [f64; 3] {
    let scale = entries.iter().fold(0.0, |m: f64, x| m.max(x.abs()));
    if scale == 0.0 || !scale.is_finite() {
        return [0.0; 3];
    }
    let [xx, xy, xz, yy, yz, zz] = entries.map(|x| x / scale);
    let m = nalgebra::Matrix3::new(xx, xy, xz, xy, yy, yz, xz, yz, zz);
    let mut e: Vec<f64> = m
        .symmetric_eigenvalues()
        .iter()
        .map(|x| x * scale)
        .collect();
    e.sort_by(f64::total_cmp);
    [e[0], e[1], e[2]]
}

/// Every constant of the built model is finite: finite URDF numbers can still
/// overflow when combined (a mass of 1e300 at a distance of 1e300 m).
pub(super) fn finite_model(model: &Model) -> Result<(), ModelError> {
    for joint in &model.joints {
        let i = &joint.inertia;
        let p = &joint.placement;
        let numbers = std::iter::once(i.mass)
            .chain(i.first_moment.0)
            .chain(i.rotational.0.into_iter().flatten())
            .chain(p.translation.0)
            .chain(p.rotation.0.into_iter().flatten());
        if numbers.into_iter().any(|x| !x.is_finite()) {
            return Err(ModelError::NonFinite {
                element: format!("joint `{}`", joint.name),
                field: "placement or inertia of its body after merging welded links".into(),
            });
        }
    }
    for frame in &model.frames {
        let p = &frame.placement;
        if p.translation
            .0
            .into_iter()
            .chain(p.rotation.0.into_iter().flatten())
            .any(|x| !x.is_finite())
        {
            return Err(ModelError::NonFinite {
                element: format!("frame `{}`", frame.name),
                field: "placement".into(),
            });
        }
    }
    Ok(())
}
