//! The table of functions a generated module can contain: for each, its
//! arguments, output shape, documentation and how to trace it with the
//! runtime's generic algorithm. Adding a function is adding a [`Function`]
//! variant and its [`Spec`] here; emission and the front ends need no change.
//!
//! A Jacobian with respect to one of two arguments (Pinocchio's `ARG0` /
//! `ARG1`) is a function of its own, named after that argument:
//! `d_integrate_dq` / `d_integrate_dv` are `dIntegrate(.., ARG0 / ARG1)`,
//! `d_difference_dq0` / `d_difference_dq1` are `dDifference(.., ARG0 / ARG1)`
//! (the runtime's `d_integrate` / `d_difference` take an `ArgumentPosition`).
//! Each is emitted only when asked for, and compiling one does not pay for the
//! other.

use rbdgen_runtime::{
    aba, crba, d_difference, d_integrate, difference, forward_kinematics, frame_placement,
    integrate, rnea, ArgumentPosition, Data, Model,
};

use crate::trace::Expr;

/// A function the generated module can contain.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Function {
    /// `rnea(q, v, a) -> tau`.
    Rnea,
    /// `crba(q) -> M` (full).
    Crba,
    /// `aba(q, v, tau) -> a`.
    Aba,
    /// `frame_placement(q, frame) -> oMf` (4x4).
    FramePlacement,
    /// `integrate(q, v) -> q ⊕ v`.
    Integrate,
    /// `difference(q0, q1) -> q1 ⊖ q0`.
    Difference,
    /// `d_integrate_dq(q, v)`: Pinocchio's `dIntegrate(.., ARG0)`.
    DIntegrateDq,
    /// `d_integrate_dv(q, v)`: Pinocchio's `dIntegrate(.., ARG1)`.
    DIntegrateDv,
    /// `d_difference_dq0(q0, q1)`: Pinocchio's `dDifference(.., ARG0)`.
    DDifferenceDq0,
    /// `d_difference_dq1(q0, q1)`: Pinocchio's `dDifference(.., ARG1)`.
    DDifferenceDq1,
}

impl Function {
    /// Every function, in emission order.
    pub const ALL: [Function; 10] = [
        Function::Rnea,
        Function::Crba,
        Function::Aba,
        Function::FramePlacement,
        Function::Integrate,
        Function::Difference,
        Function::DIntegrateDq,
        Function::DIntegrateDv,
        Function::DDifferenceDq0,
        Function::DDifferenceDq1,
    ];

    /// The generated function's name, as the runtime's.
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// The function called `name`.
    pub fn from_name(name: &str) -> Option<Function> {
        Self::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// A length in a generated signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    /// `NQ`.
    Nq,
    /// `NV`.
    Nv,
    /// A fixed number.
    Fixed(usize),
}

impl Dim {
    /// The number for `model`.
    pub fn len(self, model: &Model) -> usize {
        match self {
            Dim::Nq => model.nq,
            Dim::Nv => model.nv,
            Dim::Fixed(n) => n,
        }
    }
}

/// The output of a generated function.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    /// `f64`.
    Scalar,
    /// `[f64; n]`.
    Vector(Dim),
    /// `[[f64; cols]; rows]`, filled row-major.
    Matrix(Dim, Dim),
}

/// How to trace a function: the generic algorithm on symbolic arguments (one
/// `Vec` per argument, in order), for the frame index given to per-frame
/// functions; returns the outputs flattened row-major.
pub type TraceFn = fn(&Model, &mut Data<Expr>, &[Vec<Expr>], Option<usize>) -> Vec<Expr>;

/// Everything emission needs to know about one function.
pub struct Spec {
    /// The Rust name, as the runtime's.
    pub name: &'static str,
    /// Array arguments, `&[f64; dim]` each.
    pub args: &'static [(&'static str, Dim)],
    /// Whether the function takes a `frame: Frame` after the arrays and is
    /// emitted as one specialised arm per link frame.
    pub per_frame: bool,
    /// The result.
    pub output: Output,
    /// Doc lines: summary, equation, source, shapes and units.
    pub doc: &'static [&'static str],
    /// The trace.
    pub trace: TraceFn,
}

impl Function {
    /// This function's entry of the table.
    pub fn spec(self) -> Spec {
        match self {
            Function::Rnea => Spec {
                name: "rnea",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv)],
                per_frame: false,
                output: Output::Vector(Dim::Nv),
                doc: &[
                    "Inverse dynamics `tau = M(q) a + C(q, v) v + g(q)` by the recursive Newton-Euler",
                    "algorithm (Featherstone 2008 §5.3; Pinocchio's `rnea`).",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `a: [NV]`; returns `tau: [NV]` (N·m, N; a free-flyer's",
                    "entries are the base wrench in the base frame). `rnea(q, v, 0)` is `nonLinearEffects`.",
                ],
                trace: |m, d, x, _| rnea(m, d, &x[0], &x[1], &x[2]).to_vec(),
            },
            Function::Crba => Spec {
                name: "crba",
                args: &[("q", Dim::Nq)],
                per_frame: false,
                output: Output::Matrix(Dim::Nv, Dim::Nv),
                doc: &[
                    "The joint-space inertia matrix `M(q)` by the composite rigid-body algorithm",
                    "(Featherstone 2008 §6.2; Pinocchio's `crba`, which fills only the upper",
                    "triangle: this is the full symmetric matrix).",
                    "",
                    "`q: [NQ]`; returns `M: [NV x NV]` (kg, kg·m, kg·m²).",
                ],
                trace: |m, d, x, _| crba(m, d, &x[0]).to_vec(),
            },
            Function::Aba => Spec {
                name: "aba",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("tau", Dim::Nv)],
                per_frame: false,
                output: Output::Vector(Dim::Nv),
                doc: &[
                    "Forward dynamics `a = M(q)⁻¹ (tau - C(q, v) v - g(q))` by the articulated-body",
                    "algorithm (Featherstone 2008 §7.3; Pinocchio's `aba`).",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `tau: [NV]`; returns `a: [NV]`. `rnea(q, v, aba(q, v, tau)) = tau`.",
                ],
                trace: |m, d, x, _| aba(m, d, &x[0], &x[1], &x[2]).to_vec(),
            },
            Function::FramePlacement => Spec {
                name: "frame_placement",
                args: &[("q", Dim::Nq)],
                per_frame: true,
                output: Output::Matrix(Dim::Fixed(4), Dim::Fixed(4)),
                doc: &[
                    "The placement `world_from_frame` of a link frame as a 4x4 homogeneous matrix",
                    "`[[R, p], [0, 1]]` (Pinocchio's `oMf` after `updateFramePlacements`); `q: [NQ]`, m.",
                ],
                trace: |m, d, x, frame| {
                    forward_kinematics(m, d, &x[0]);
                    let frame = frame.expect("per-frame function");
                    frame_placement(m, d, frame).to_homogeneous().concat()
                },
            },
            Function::Integrate => Spec {
                name: "integrate",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: false,
                output: Output::Vector(Dim::Nq),
                doc: &[
                    "The configuration `q ⊕ v` reached from `q` along `v` in unit time (Pinocchio's",
                    "`integrate`): `q + v` for revolute and prismatic joints, the rotation of",
                    "`[cos, sin]` for continuous joints, `M(q) exp6(v)` for a free-flyer (SE(3), its",
                    "quaternion renormalised to first order as Pinocchio's).",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns `[NQ]`. `integrate(q, difference(q, q1)) = q1`.",
                ],
                trace: |m, _, x, _| integrate(m, &x[0], &x[1]),
            },
            Function::Difference => Spec {
                name: "difference",
                args: &[("q0", Dim::Nq), ("q1", Dim::Nq)],
                per_frame: false,
                output: Output::Vector(Dim::Nv),
                doc: &[
                    "The tangent vector `q1 ⊖ q0` that moves `q0` to `q1` (Pinocchio's `difference`):",
                    "`q1 - q0`, the angle in (-π, π] for continuous joints, `log6(M(q0)⁻¹ M(q1))` for",
                    "a free-flyer.",
                    "",
                    "`q0, q1: [NQ]`; returns `[NV]`.",
                ],
                trace: |m, _, x, _| difference(m, &x[0], &x[1]),
            },
            Function::DIntegrateDq => Spec {
                name: "d_integrate_dq",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: false,
                output: Output::Matrix(Dim::Nv, Dim::Nv),
                doc: &[
                    "The Jacobian of `integrate(q, v)` with respect to `q` in the tangent space",
                    "(Pinocchio's `dIntegrate(model, q, v, ARG0)`; the runtime's",
                    "`d_integrate(model, q, v, ArgumentPosition::Arg0)`): block diagonal, `1` per",
                    "1-dof joint, `Ad(exp6(v))⁻¹` for a free-flyer.",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns `[NV x NV]`.",
                ],
                trace: |m, _, x, _| d_integrate(m, &x[0], &x[1], ArgumentPosition::Arg0),
            },
            Function::DIntegrateDv => Spec {
                name: "d_integrate_dv",
                args: &[("q", Dim::Nq), ("v", Dim::Nv)],
                per_frame: false,
                output: Output::Matrix(Dim::Nv, Dim::Nv),
                doc: &[
                    "The Jacobian of `integrate(q, v)` with respect to `v` in the tangent space",
                    "(Pinocchio's `dIntegrate(model, q, v, ARG1)`; the runtime's",
                    "`d_integrate(model, q, v, ArgumentPosition::Arg1)`): block diagonal, `1` per",
                    "1-dof joint, `Jexp6(v)` for a free-flyer.",
                    "",
                    "`q: [NQ]`, `v: [NV]`; returns `[NV x NV]`.",
                ],
                trace: |m, _, x, _| d_integrate(m, &x[0], &x[1], ArgumentPosition::Arg1),
            },
            Function::DDifferenceDq0 => Spec {
                name: "d_difference_dq0",
                args: &[("q0", Dim::Nq), ("q1", Dim::Nq)],
                per_frame: false,
                output: Output::Matrix(Dim::Nv, Dim::Nv),
                doc: &[
                    "The Jacobian of `difference(q0, q1)` with respect to `q0` in the tangent space",
                    "(Pinocchio's `dDifference(model, q0, q1, ARG0)`; the runtime's",
                    "`d_difference(model, q0, q1, ArgumentPosition::Arg0)`): block diagonal, `-1` per",
                    "1-dof joint, `-Jlog6(M) Ad(M)⁻¹` for a free-flyer, `M = M(q0)⁻¹ M(q1)`.",
                    "",
                    "`q0, q1: [NQ]`; returns `[NV x NV]`.",
                ],
                trace: |m, _, x, _| d_difference(m, &x[0], &x[1], ArgumentPosition::Arg0),
            },
            Function::DDifferenceDq1 => Spec {
                name: "d_difference_dq1",
                args: &[("q0", Dim::Nq), ("q1", Dim::Nq)],
                per_frame: false,
                output: Output::Matrix(Dim::Nv, Dim::Nv),
                doc: &[
                    "The Jacobian of `difference(q0, q1)` with respect to `q1` in the tangent space",
                    "(Pinocchio's `dDifference(model, q0, q1, ARG1)`; the runtime's",
                    "`d_difference(model, q0, q1, ArgumentPosition::Arg1)`): block diagonal, `1` per",
                    "1-dof joint, `Jlog6(M(q0)⁻¹ M(q1))` for a free-flyer.",
                    "",
                    "`q0, q1: [NQ]`; returns `[NV x NV]`.",
                ],
                trace: |m, _, x, _| d_difference(m, &x[0], &x[1], ArgumentPosition::Arg1),
            },
        }
    }
}
