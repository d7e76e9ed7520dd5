//! The table's entries of the centre of mass and the centroidal momentum: the centre of mass
//! and its Jacobian, the centroidal momentum matrix, its time derivative, the momentum's
//! rate and its derivatives.
//!
//! One function per entry, in table order, given its name by the list (`rt` is the runtime).

use rbdgen_runtime as rt;
use rbdgen_runtime::Scalar;

use super::{Dim, Output, Spec};

pub(super) fn center_of_mass<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq)],
        per_frame: false,
        output: Output::Vector(Dim::Fixed(3)),
        doc: &[
            "The centre of mass `c = Σ m_i c_i / Σ m_i` of the moving bodies in the world frame",
            "(Pinocchio's `centerOfMass`); links welded to the world count nowhere.",
            "",
            "`q: [NQ]`; returns `c: [3]` (m).",
        ],
        evaluate: |m, d, x, _| Ok(rt::center_of_mass(m, d, &x[0])?.0.to_vec()),
    }
}

pub(super) fn jacobian_center_of_mass<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq)],
        per_frame: false,
        output: Output::Matrix(Dim::Fixed(3), Dim::Nv),
        doc: &[
            "The Jacobian of the centre of mass, `ċ = Jcom(q) v`, world frame (Pinocchio's",
            "`jacobianCenterOfMass`).",
            "",
            "`q: [NQ]`; returns `Jcom: [3 x NV]` (m per unit of v).",
        ],
        evaluate: |m, d, x, _| Ok(rt::jacobian_center_of_mass(m, d, &x[0])?.to_vec()),
    }
}

pub(super) fn ccrba<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv)],
        per_frame: false,
        output: Output::Tuple(&[
            Output::Matrix(Dim::Fixed(6), Dim::Nv),
            Output::Vector(Dim::Fixed(6)),
        ]),
        doc: &[
            "The centroidal momentum matrix `Ag(q)` and momentum `hg = Ag v` (Orin, Goswami and",
            "Lee 2013; Pinocchio's `ccrba`): momentum about the centre of mass with world axes,",
            "rows `[linear; angular]`.",
            "",
            "`q: [NQ]`, `v: [NV]`; returns `(Ag: [6 x NV], hg: [6])` (kg·m/s, kg·m²/s).",
        ],
        evaluate: |m, d, x, _| {
            let (ag, hg) = rt::ccrba(m, d, &x[0], &x[1])?;
            Ok([ag, &hg.to_array()[..]].concat())
        },
    }
}

pub(super) fn dccrba<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv)],
        per_frame: false,
        output: Output::Matrix(Dim::Fixed(6), Dim::Nv),
        doc: &[
            "The time derivative `dAg/dt` of the centroidal momentum matrix along `v`",
            "(Pinocchio's `dccrba`), so that `d(hg)/dt = Ag a + dAg v`.",
            "",
            "`q: [NQ]`, `v: [NV]`; returns `dAg: [6 x NV]`, rows `[linear; angular]`.",
        ],
        evaluate: |m, d, x, _| Ok(rt::dccrba(m, d, &x[0], &x[1])?.to_vec()),
    }
}

pub(super) fn centroidal_momentum_rate<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv)],
        per_frame: false,
        output: Output::Vector(Dim::Fixed(6)),
        doc: &[
            "The rate of change of the centroidal momentum `ḣg = Ag a + dAg v` (Pinocchio's",
            "`computeCentroidalMomentumTimeVariation`, `dhg`), by one RNEA forward pass without",
            "gravity: the net external wrench about the centre of mass minus gravity's.",
            "",
            "`q: [NQ]`, `v: [NV]`, `a: [NV]`; returns `ḣg: [6]`, `[linear; angular]` (N, N·m).",
        ],
        evaluate: |m, d, x, _| {
            Ok(rt::centroidal_momentum_rate(m, d, &x[0], &x[1], &x[2])?
                .to_array()
                .to_vec())
        },
    }
}

pub(super) fn centroidal_dynamics_derivatives<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv)],
        per_frame: false,
        output: Output::Tuple(&[
            Output::Matrix(Dim::Fixed(6), Dim::Nv),
            Output::Matrix(Dim::Fixed(6), Dim::Nv),
            Output::Matrix(Dim::Fixed(6), Dim::Nv),
            Output::Matrix(Dim::Fixed(6), Dim::Nv),
        ]),
        doc: &[
            "The derivatives of the centroidal momentum `hg(q, v)` (`ccrba`) and of its rate",
            "`ḣg(q, v, a)` (`centroidal_momentum_rate`): `(dh_dq, dhdot_dq, dhdot_dv, dhdot_da)`",
            "(Pinocchio's `computeCentroidalDynamicsDerivatives`), `q` in the tangent space, from one",
            "pass of the RNEA derivatives without gravity (the subtrees' forces and momenta moved to",
            "the centre of mass). `dhdot_da` is `Ag`.",
            "",
            "`q: [NQ]`, `v: [NV]`, `a: [NV]`; returns four `[6 x NV]`, rows `[linear; angular]`.",
        ],
        evaluate: |m, d, x, _| {
            let c = rt::centroidal_dynamics_derivatives(m, d, &x[0], &x[1], &x[2])?;
            Ok([c.dh_dq, c.dhdot_dq, c.dhdot_dv, c.dhdot_da].concat())
        },
    }
}
