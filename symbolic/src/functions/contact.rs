//! The table's entries that need a contact set (`Model::contacts`, the functions of
//! [`Function::needs_contacts`](super::Function::needs_contacts)): the contact Jacobian and
//! drift, contact and impulse dynamics, their derivatives, the step in contact, and their
//! masked forms.
//!
//! One function per entry, in table order, given its name by the list (`rt` is the runtime).

use rbdgen_runtime as rt;
use rbdgen_runtime::Scalar;

use super::{Dim, Output, Spec};

pub(super) fn contact_jacobian<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq)],
        per_frame: false,
        output: Output::Matrix(Dim::Contacts, Dim::Nv),
        doc: &[
            "The stacked Jacobian `J_c(q)` of the contact set `CONTACTS`, in its order: 3 rows per",
            "point contact (the linear rows of the frame's LOCAL_WORLD_ALIGNED Jacobian), 6 per",
            "6-D contact (its LOCAL Jacobian) (Pinocchio's `getFrameJacobian`, the rows of",
            "`getConstraintsJacobian` for `CONTACT_3D` / `CONTACT_6D`).",
            "",
            "`q: [NQ]`; returns `J_c: [NC x NV]`.",
        ],
        evaluate: |m, d, x, _| rt::contact_jacobian(m, d, &x[0], &m.contacts),
    }
}

pub(super) fn contact_drift<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv)],
        per_frame: false,
        output: Output::Vector(Dim::Contacts),
        doc: &[
            "The stacked contact drift `γ = J̇_c v` of `CONTACTS`: the classical acceleration of a",
            "point contact's origin in world axes, the spatial acceleration of a 6-D contact in its",
            "own axes, at `v̇ = 0` (Pinocchio's `getFrameClassicalAcceleration(.., LOCAL_WORLD_ALIGNED)`",
            "/ `getFrameAcceleration(.., LOCAL)`). The constraints read `J_c v̇ + γ = 0`.",
            "",
            "`q: [NQ]`, `v: [NV]`; returns `γ: [NC]` (m/s², rad/s²).",
        ],
        evaluate: |m, d, x, _| rt::contact_drift(m, d, &x[0], &x[1], &m.contacts),
    }
}

pub(super) fn contact_dynamics<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("tau", Dim::Nv), ("damping", Dim::Scalar)],
        per_frame: false,
        output: Output::Tuple(&[Output::Vector(Dim::Nv), Output::Vector(Dim::Contacts)]),
        doc: &[
            "Forward dynamics under the rigid contacts `CONTACTS`: `(a, λ)` solving",
            "`[M J_cᵀ; J_c -μ I] [a; -λ] = [tau - h; -γ]` (Pinocchio's",
            "`forwardDynamics(model, data, q, v, tau, J_c, γ, μ)`), so that `M a + h = tau + J_cᵀ λ`",
            "and `J_c a + γ = -μ λ`. By the tree-sparse factors of `M` and an `L D Lᵀ` of the",
            "contact-space operator `J_c M⁻¹ J_cᵀ + μ I` (no pivoting, no branch): pass",
            "`damping = μ = 0` for rigid contacts, a small `μ > 0` for a rank-deficient set.",
            "",
            "`q: [NQ]`, `v: [NV]`, `tau: [NV]`, `damping` ≥ 0; returns `(a: [NV], λ: [NC])`, λ the",
            "force on the robot in the contact rows' frames (N; N·m for 6-D rows).",
        ],
        evaluate: |m, d, x, _| {
            let (a, l) = rt::contact_dynamics(m, d, &x[0], &x[1], &x[2], &m.contacts, x[3][0])?;
            Ok([a, l].concat())
        },
    }
}

pub(super) fn contact_inverse_dynamics<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[
            ("q", Dim::Nq),
            ("v", Dim::Nv),
            ("a", Dim::Nv),
            ("lambda", Dim::Contacts),
        ],
        per_frame: false,
        output: Output::Vector(Dim::Nv),
        doc: &[
            "The residual of the whole-body equation of motion, `rnea(q, v, a) - J_cᵀ λ`: the",
            "torques that `(a, λ)` demand on `CONTACTS`. With a floating base its first 6 entries",
            "must vanish (nothing actuates the free-flyer): the underactuation check of a",
            "whole-body controller. For `contact_dynamics`'s `(a, λ)` it returns `tau`.",
            "",
            "`q: [NQ]`, `v: [NV]`, `a: [NV]`, `lambda: [NC]`; returns `[NV]` (N·m, N).",
        ],
        evaluate: |m, d, x, _| {
            rt::contact_inverse_dynamics(m, d, &x[0], &x[1], &x[2], &x[3], &m.contacts)
        },
    }
}

pub(super) fn center_of_pressure<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[
            ("q", Dim::Nq),
            ("lambda", Dim::Contacts),
            ("height", Dim::Scalar),
        ],
        per_frame: false,
        output: Output::Vector(Dim::Fixed(2)),
        doc: &[
            "The centre of pressure (zero-moment point) of the contact forces `lambda` of",
            "`CONTACTS` on the horizontal plane `z = height`: `x = (z f_x - n_y) / f_z`,",
            "`y = (z f_y + n_x) / f_z` for the total force f and moment n about the world origin",
            "(the runtime's `center_of_pressure`).",
            "",
            "`q: [NQ]`, `lambda: [NC]` (as `contact_dynamics` returns it), `height` (m); returns",
            "`[x, y]` (m), world frame.",
        ],
        evaluate: |m, d, x, _| {
            Ok(rt::center_of_pressure(m, d, &x[0], &m.contacts, &x[1], x[2][0])?.to_vec())
        },
    }
}

pub(super) fn contact_drift_derivatives<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv)],
        per_frame: false,
        output: Output::Tuple(&[
            Output::Matrix(Dim::Contacts, Dim::Nv),
            Output::Matrix(Dim::Contacts, Dim::Nv),
        ]),
        doc: &[
            "The derivatives `(dγ_dq, dγ_dv)` of the contact drift `γ(q, v)` of `CONTACTS`",
            "(`contact_drift`: classical for a point, spatial in LOCAL for a 6-D contact), `q` in",
            "the tangent space, analytically from one forward pass of the kinematic derivatives.",
            "",
            "`q: [NQ]`, `v: [NV]`; returns two `[NC x NV]`.",
        ],
        evaluate: |m, d, x, _| {
            let (dq, dv) = rt::contact_drift_derivatives(m, d, &x[0], &x[1], &m.contacts)?;
            Ok([dq, dv].concat())
        },
    }
}

pub(super) fn contact_dynamics_derivatives<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("tau", Dim::Nv), ("damping", Dim::Scalar)],
        per_frame: false,
        output: Output::Tuple(&[
            Output::Matrix(Dim::Nv, Dim::Nv),
            Output::Matrix(Dim::Nv, Dim::Nv),
            Output::Matrix(Dim::Nv, Dim::Nv),
            Output::Matrix(Dim::Contacts, Dim::Nv),
            Output::Matrix(Dim::Contacts, Dim::Nv),
            Output::Matrix(Dim::Contacts, Dim::Nv),
        ]),
        doc: &[
            "The derivatives of `contact_dynamics` on `CONTACTS` at fixed `damping`: `(ddq_dq, ddq_dv,",
            "ddq_dtau, dlambda_dq, dlambda_dv, dlambda_dtau)` (Pinocchio's `constraintDynamics` +",
            "`computeConstraintDynamicsDerivatives`), `q` in the tangent space. By the implicit",
            "function theorem: `∂(a, λ)/∂x = -K⁻¹ ∂F/∂x` for the residual `F = (M a + h - tau - J_cᵀ λ,",
            "J_c a + γ + μ λ)`, `∂F/∂x` at fixed `(a, λ)` from one pass of the RNEA derivatives with",
            "the contact forces as external forces and the contact points' acceleration derivatives",
            "from the same pass, `K⁻¹` from the factors `contact_dynamics` builds, as its blocks",
            "`[[P, Q], [-Qᵀ, Λ⁻¹]]`. With `damping > 0` they are the exact derivatives of",
            "the damped solution, `O(μ)` from the rigid ones.",
            "",
            "`q: [NQ]`, `v: [NV]`, `tau: [NV]`, `damping` ≥ 0; returns three `[NV x NV]`, three `[NC x NV]`.",
        ],
        evaluate: |m, d, x, _| {
            let c = rt::contact_dynamics_derivatives(m, d, &x[0], &x[1], &x[2], &m.contacts, x[3][0])?;
            Ok([c.ddq_dq, c.ddq_dv, c.ddq_dtau, c.dlambda_dq, c.dlambda_dv, c.dlambda_dtau].concat())
        },
    }
}

pub(super) fn contact_inverse_dynamics_derivatives<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv), ("lambda", Dim::Contacts)],
        per_frame: false,
        output: Output::Tuple(&[
            Output::Matrix(Dim::Nv, Dim::Nv),
            Output::Matrix(Dim::Nv, Dim::Nv),
            Output::Matrix(Dim::Nv, Dim::Nv),
            Output::Matrix(Dim::Nv, Dim::Contacts),
        ]),
        doc: &[
            "The derivatives of `contact_inverse_dynamics` `rnea(q, v, a) - J_cᵀ λ` on `CONTACTS`:",
            "`(dtau_dq, dtau_dv, dtau_da, dtau_dlambda)`, `q` in the tangent space with `λ` fixed in",
            "its rows' axes, by one pass of the RNEA derivatives with `λ` as external forces (a",
            "point's held in world axes). `dtau_da = M`,",
            "`dtau_dlambda = -J_cᵀ`.",
            "",
            "`q: [NQ]`, `v: [NV]`, `a: [NV]`, `lambda: [NC]`; returns three `[NV x NV]`, `[NV x NC]`.",
        ],
        evaluate: |m, d, x, _| {
            let (dq, dv, da, dl) = rt::contact_inverse_dynamics_derivatives(m, d, &x[0], &x[1], &x[2], &x[3], &m.contacts)?;
            Ok([dq, dv, da, dl].concat())
        },
    }
}

pub(super) fn impulse_dynamics<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("restitution", Dim::Scalar), ("damping", Dim::Scalar)],
        per_frame: false,
        output: Output::Tuple(&[Output::Vector(Dim::Nv), Output::Vector(Dim::Contacts)]),
        doc: &[
            "A rigid impact at `CONTACTS` (Pinocchio's `impulseDynamics`): `(v⁺, Λ)` with",
            "`M (v⁺ - v) = J_cᵀ Λ` and `J_c v⁺ = -e J_c v`, `e = restitution` (0: the contacts stop),",
            "by the factors of `contact_dynamics`; `damping = μ` as there (`J_c v⁺ = -e J_c v - μ Λ`:",
            "0 for rigid contacts, a small `μ > 0` for a rank-deficient set).",
            "",
            "`q: [NQ]`, `v: [NV]` (before the impact), `restitution` in [0, 1], `damping` ≥ 0; returns `(v⁺: [NV],",
            "Λ: [NC])`, the impulse on the robot (N·s; N·m·s for 6-D angular rows).",
        ],
        evaluate: |m, d, x, _| {
            let (v, l) = rt::impulse_dynamics(m, d, &x[0], &x[1], &m.contacts, x[2][0], x[3][0])?;
            Ok([v, l].concat())
        },
    }
}

pub(super) fn impulse_dynamics_derivatives<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("restitution", Dim::Scalar), ("damping", Dim::Scalar)],
        per_frame: false,
        output: Output::Tuple(&[
            Output::Matrix(Dim::Nv, Dim::Nv),
            Output::Matrix(Dim::Nv, Dim::Nv),
            Output::Matrix(Dim::Contacts, Dim::Nv),
            Output::Matrix(Dim::Contacts, Dim::Nv),
        ]),
        doc: &[
            "The derivatives of `impulse_dynamics`: `(dvplus_dq, dvplus_dv, dimpulse_dq, dimpulse_dv)`",
            "(Pinocchio's `computeImpulseDynamicsDerivatives`, whose `ddq_dv` is `dvplus_dv - I`),",
            "`q` in the tangent space at fixed pre-impact `v`, by the implicit function theorem as",
            "`contact_dynamics_derivatives`.",
            "",
            "`q: [NQ]`, `v: [NV]`, `restitution`, `damping`; returns two `[NV x NV]`, two `[NC x NV]`.",
        ],
        evaluate: |m, d, x, _| {
            let i = rt::impulse_dynamics_derivatives(m, d, &x[0], &x[1], &m.contacts, x[2][0], x[3][0])?;
            Ok([i.dvplus_dq, i.dvplus_dv, i.dimpulse_dq, i.dimpulse_dv].concat())
        },
    }
}

pub(super) fn contact_step_linearization<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("u", Dim::Nu), ("h", Dim::Scalar), ("damping", Dim::Scalar)],
        per_frame: false,
        output: Output::Tuple(&[
            Output::Vector(Dim::Nq),
            Output::Vector(Dim::Nv),
            Output::Matrix(Dim::TwoNv, Dim::TwoNv),
            Output::Matrix(Dim::TwoNv, Dim::Nu),
        ]),
        doc: &[
            "One step of semi-implicit Euler with the feet down and its linearization (the runtime's",
            "`contact_step_linearization`): `step_linearization` with `a` from `contact_dynamics` on",
            "`CONTACTS` (damping `μ`) instead of ABA, `A`, `B` from `contact_dynamics_derivatives`:",
            "`δx⁺ ≈ A δx + B δu`, `δx = (δq, δv)` in the tangent space.",
            "",
            "`q: [NQ]`, `v: [NV]`, `u: [NU]` (N·m, N), `h` (s), `damping` ≥ 0; returns `(q⁺: [NQ],",
            "v⁺: [NV], A: [2NV x 2NV], B: [2NV x NU])`.",
        ],
        evaluate: |m, d, x, _| {
            let (q_next, v_next, a, b) = rt::contact_step_linearization(m, d, &x[0], &x[1], &x[2], x[3][0], &m.contacts, x[4][0])?;
            Ok([q_next, v_next, a, b].concat())
        },
    }
}

pub(super) fn contact_dynamics_masked<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("tau", Dim::Nv), ("active", Dim::Contacts), ("damping", Dim::Scalar)],
        per_frame: false,
        output: Output::Tuple(&[Output::Vector(Dim::Nv), Output::Vector(Dim::Contacts)]),
        doc: &[
            "`contact_dynamics` on the contacts of `CONTACTS` that `active` marks (the runtime's",
            "`contact_dynamics_masked`).",
            "With the run-time contact mask `active: [NC]`, one weight per contact row: 1 for the",
            "rows of a contact in contact, 0 for the others (all rows of a contact alike). The",
            "result equals the unmasked function's on the active contacts alone (the inactive",
            "rows of λ and of its derivatives zero), branch-free: one function for every gait mode.",
            "",
            "`q: [NQ]`, `v: [NV]`, `tau: [NV]`, `active: [NC]`, `damping` ≥ 0; returns `(a: [NV], λ: [NC])`.",
        ],
        evaluate: |m, d, x, _| {
            let (a, l) = rt::contact_dynamics_masked(m, d, &x[0], &x[1], &x[2], &m.contacts, &x[3], x[4][0])?;
            Ok([a, l].concat())
        },
    }
}

pub(super) fn contact_dynamics_derivatives_masked<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("tau", Dim::Nv), ("active", Dim::Contacts), ("damping", Dim::Scalar)],
        per_frame: false,
        output: CONTACT_DERIVATIVES,
        doc: &[
            "`contact_dynamics_derivatives` on the contacts of `CONTACTS` that `active` marks (the",
            "runtime's `contact_dynamics_derivatives_masked`).",
            "With the run-time contact mask `active: [NC]`, one weight per contact row: 1 for the",
            "rows of a contact in contact, 0 for the others (all rows of a contact alike). The",
            "result equals the unmasked function's on the active contacts alone (the inactive",
            "rows of λ and of its derivatives zero), branch-free: one function for every gait mode.",
            "",
            "`q: [NQ]`, `v: [NV]`, `tau: [NV]`, `active: [NC]`, `damping` ≥ 0; returns three",
            "`[NV x NV]`, three `[NC x NV]`.",
        ],
        evaluate: |m, d, x, _| {
            let c = rt::contact_dynamics_derivatives_masked(m, d, &x[0], &x[1], &x[2], &m.contacts, &x[3], x[4][0])?;
            Ok([c.ddq_dq, c.ddq_dv, c.ddq_dtau, c.dlambda_dq, c.dlambda_dv, c.dlambda_dtau].concat())
        },
    }
}

pub(super) fn impulse_dynamics_masked<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("active", Dim::Contacts), ("restitution", Dim::Scalar), ("damping", Dim::Scalar)],
        per_frame: false,
        output: Output::Tuple(&[Output::Vector(Dim::Nv), Output::Vector(Dim::Contacts)]),
        doc: &[
            "`impulse_dynamics` at the contacts of `CONTACTS` that `active` marks, those that land",
            "(the runtime's `impulse_dynamics_masked`).",
            "With the run-time contact mask `active: [NC]`, one weight per contact row: 1 for the",
            "rows of a contact in contact, 0 for the others (all rows of a contact alike). The",
            "result equals the unmasked function's on the active contacts alone (the inactive",
            "rows of λ and of its derivatives zero), branch-free: one function for every gait mode.",
            "",
            "`q: [NQ]`, `v: [NV]`, `active: [NC]`, `restitution`, `damping`; returns `(v⁺: [NV], Λ: [NC])`.",
        ],
        evaluate: |m, d, x, _| {
            let (v, l) = rt::impulse_dynamics_masked(m, d, &x[0], &x[1], &m.contacts, &x[2], x[3][0], x[4][0])?;
            Ok([v, l].concat())
        },
    }
}

pub(super) fn impulse_dynamics_derivatives_masked<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("active", Dim::Contacts), ("restitution", Dim::Scalar), ("damping", Dim::Scalar)],
        per_frame: false,
        output: IMPULSE_DERIVATIVES,
        doc: &[
            "`impulse_dynamics_derivatives` at the contacts of `CONTACTS` that `active` marks (the",
            "runtime's `impulse_dynamics_derivatives_masked`).",
            "With the run-time contact mask `active: [NC]`, one weight per contact row: 1 for the",
            "rows of a contact in contact, 0 for the others (all rows of a contact alike). The",
            "result equals the unmasked function's on the active contacts alone (the inactive",
            "rows of λ and of its derivatives zero), branch-free: one function for every gait mode.",
            "",
            "`q: [NQ]`, `v: [NV]`, `active: [NC]`, `restitution`, `damping`; returns two `[NV x NV]`,",
            "two `[NC x NV]`.",
        ],
        evaluate: |m, d, x, _| {
            let i = rt::impulse_dynamics_derivatives_masked(m, d, &x[0], &x[1], &m.contacts, &x[2], x[3][0], x[4][0])?;
            Ok([i.dvplus_dq, i.dvplus_dv, i.dimpulse_dq, i.dimpulse_dv].concat())
        },
    }
}

pub(super) fn contact_step_linearization_masked<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("u", Dim::Nu), ("h", Dim::Scalar), ("active", Dim::Contacts), ("damping", Dim::Scalar)],
        per_frame: false,
        output: STEP,
        doc: &[
            "`contact_step_linearization` on the contacts of `CONTACTS` that `active` marks (the",
            "runtime's `contact_step_linearization_masked`): each knot of an MPC horizon that crosses",
            "stance, trot diagonals and flight calls this one function with its own mask.",
            "With the run-time contact mask `active: [NC]`, one weight per contact row: 1 for the",
            "rows of a contact in contact, 0 for the others (all rows of a contact alike). The",
            "result equals the unmasked function's on the active contacts alone (the inactive",
            "rows of λ and of its derivatives zero), branch-free: one function for every gait mode.",
            "",
            "`q: [NQ]`, `v: [NV]`, `u: [NU]` (N·m, N), `h` (s), `active: [NC]`, `damping` ≥ 0; returns",
            "`(q⁺: [NQ], v⁺: [NV], A: [2NV x 2NV], B: [2NV x NU])`.",
        ],
        evaluate: |m, d, x, _| {
            let (q_next, v_next, a, b) = rt::contact_step_linearization_masked(m, d, &x[0], &x[1], &x[2], x[3][0], &m.contacts, &x[4], x[5][0])?;
            Ok([q_next, v_next, a, b].concat())
        },
    }
}

pub(super) fn contact_step_linearization_forces_masked<S: Scalar>(name: &'static str) -> Spec<S> {
    Spec {
        name,
        args: &[("q", Dim::Nq), ("v", Dim::Nv), ("u", Dim::Nu), ("h", Dim::Scalar), ("active", Dim::Contacts), ("damping", Dim::Scalar)],
        per_frame: false,
        output: STEP_FORCES,
        doc: &[
            "`contact_step_linearization_masked` with the step's contact forces and their",
            "linearization from the same pass (the runtime's `contact_step_linearization_forces_masked`):",
            "`λ ≈ λ̄ + Λx δx + Λu δu`, `δx = (δq, δv)` in the tangent space as for `A`, the rows of `λ`",
            "those of `contact_dynamics_masked` (a point's force in world axes, a 6-D contact's wrench",
            "in its frame, inactive rows zero). One call per knot for an MPC's dynamics and its",
            "friction cones, instead of the step and `contact_dynamics_derivatives_masked`.",
            "With the run-time contact mask `active: [NC]`, one weight per contact row: 1 for the",
            "rows of a contact in contact, 0 for the others (all rows of a contact alike).",
            "",
            "`q: [NQ]`, `v: [NV]`, `u: [NU]` (N·m, N), `h` (s), `active: [NC]`, `damping` ≥ 0; returns",
            "`(q⁺: [NQ], v⁺: [NV], A: [2NV x 2NV], B: [2NV x NU], λ: [NC], Λx: [NC x 2NV], Λu: [NC x NU])`.",
        ],
        evaluate: |m, d, x, _| {
            let (q_next, v_next, a, b, l, lx, lu) = rt::contact_step_linearization_forces_masked(m, d, &x[0], &x[1], &x[2], x[3][0], &m.contacts, &x[4], x[5][0])?;
            Ok([q_next, v_next, a, b, l, lx, lu].concat())
        },
    }
}

/// The output of the contact dynamics derivatives: three `[NV x NV]`, three `[NC x NV]`.
const CONTACT_DERIVATIVES: Output = Output::Tuple(&[
    Output::Matrix(Dim::Nv, Dim::Nv),
    Output::Matrix(Dim::Nv, Dim::Nv),
    Output::Matrix(Dim::Nv, Dim::Nv),
    Output::Matrix(Dim::Contacts, Dim::Nv),
    Output::Matrix(Dim::Contacts, Dim::Nv),
    Output::Matrix(Dim::Contacts, Dim::Nv),
]);

/// The output of the impulse derivatives: two `[NV x NV]`, two `[NC x NV]`.
const IMPULSE_DERIVATIVES: Output = Output::Tuple(&[
    Output::Matrix(Dim::Nv, Dim::Nv),
    Output::Matrix(Dim::Nv, Dim::Nv),
    Output::Matrix(Dim::Contacts, Dim::Nv),
    Output::Matrix(Dim::Contacts, Dim::Nv),
]);

/// The output of a step's linearization: `(q⁺: [NQ], v⁺: [NV], A: [2NV x 2NV], B: [2NV x NU])`.
const STEP: Output = Output::Tuple(&[
    Output::Vector(Dim::Nq),
    Output::Vector(Dim::Nv),
    Output::Matrix(Dim::TwoNv, Dim::TwoNv),
    Output::Matrix(Dim::TwoNv, Dim::Nu),
]);

/// `(q⁺, v⁺, A, B, λ, Λx, Λu)`: [`STEP`] and the contact forces' linearization.
const STEP_FORCES: Output = Output::Tuple(&[
    Output::Vector(Dim::Nq),
    Output::Vector(Dim::Nv),
    Output::Matrix(Dim::TwoNv, Dim::TwoNv),
    Output::Matrix(Dim::TwoNv, Dim::Nu),
    Output::Vector(Dim::Contacts),
    Output::Matrix(Dim::Contacts, Dim::TwoNv),
    Output::Matrix(Dim::Contacts, Dim::Nu),
]);
