//! The table of functions a generated module can contain: for each, its
//! arguments, output shape, documentation and how to trace it with the
//! runtime's generic algorithm. Adding a function is adding a [`Function`]
//! variant and its [`Spec`] here; emission and the front ends need no change.

use rbdgen_runtime::{
    aba, crba, forward_kinematics, frame_placement, integrate, rnea, Data, Model,
};

use crate::trace::{at_zero, fresh_inputs, jacobian, Expr};

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
    /// `rnea_derivatives(q, v, a) -> (dtau_dq, dtau_dv, dtau_da)`.
    RneaDerivatives,
    /// `aba_derivatives(q, v, tau) -> (ddq_dq, ddq_dv, ddq_dtau)`.
    AbaDerivatives,
}

impl Function {
    /// Every function, in emission order.
    pub const ALL: [Function; 6] = [
        Function::Rnea,
        Function::Crba,
        Function::Aba,
        Function::FramePlacement,
        Function::RneaDerivatives,
        Function::AbaDerivatives,
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
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Output {
    /// `f64`.
    Scalar,
    /// `[f64; n]`.
    Vector(Dim),
    /// `[[f64; cols]; rows]`, filled row-major.
    Matrix(Dim, Dim),
    /// A tuple, filled part after part.
    Tuple(&'static [Output]),
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
            Function::RneaDerivatives => Spec {
                name: "rnea_derivatives",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("a", Dim::Nv)],
                per_frame: false,
                output: THREE_SQUARE,
                doc: &[
                    "The derivatives of inverse dynamics `tau = rnea(q, v, a)`: `(dtau_dq, dtau_dv,",
                    "dtau_da)`, each `[NV x NV]`, `dtau_dq` in the tangent space (perturbation",
                    "`integrate(q, δ)`) and `dtau_da = M(q)`. Matches Pinocchio's",
                    "`computeRNEADerivatives`; obtained by differentiating the traced RNEA graph.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `a: [NV]`.",
                ],
                trace: |m, d, x, _| {
                    let (dq, dv) = tangent_jacobians(m, d, x, rnea);
                    let mass = crba(m, d, &x[0]).to_vec();
                    [dq, dv, mass].concat()
                },
            },
            Function::AbaDerivatives => Spec {
                name: "aba_derivatives",
                args: &[("q", Dim::Nq), ("v", Dim::Nv), ("tau", Dim::Nv)],
                per_frame: false,
                output: THREE_SQUARE,
                doc: &[
                    "The derivatives of forward dynamics `a = aba(q, v, tau)`: `(ddq_dq, ddq_dv,",
                    "ddq_dtau)`, each `[NV x NV]`, `ddq_dq` in the tangent space (perturbation",
                    "`integrate(q, δ)`) and `ddq_dtau = M(q)⁻¹`. Matches Pinocchio's",
                    "`computeABADerivatives`; obtained by differentiating the traced ABA graph.",
                    "",
                    "`q: [NQ]`, `v: [NV]`, `tau: [NV]`.",
                ],
                trace: |m, d, x, _| {
                    let (dq, dv) = tangent_jacobians(m, d, x, aba);
                    let a = aba(m, d, &x[0], &x[1], &x[2]).to_vec();
                    let dtau = jacobian(&a, &x[2]).concat();
                    [dq, dv, dtau].concat()
                },
            },
        }
    }
}

/// Three `[NV x NV]` matrices.
const THREE_SQUARE: Output = Output::Tuple(&[
    Output::Matrix(Dim::Nv, Dim::Nv),
    Output::Matrix(Dim::Nv, Dim::Nv),
    Output::Matrix(Dim::Nv, Dim::Nv),
]);

/// A dynamics function `f(q, v, u)` of the runtime.
type DynamicsFn = for<'d> fn(&Model, &'d mut Data<Expr>, &[Expr], &[Expr], &[Expr]) -> &'d [Expr];

/// `∂f/∂q` (tangent space: `f(q ⊕ δ, v, u)` differentiated at `δ = 0`) and
/// `∂f/∂v`, flattened row-major, for the arguments `x = [q, v, u]`.
fn tangent_jacobians(
    m: &Model,
    d: &mut Data<Expr>,
    x: &[Vec<Expr>],
    f: DynamicsFn,
) -> (Vec<Expr>, Vec<Expr>) {
    let delta = fresh_inputs(m.nv);
    let q = integrate(m, &x[0], &delta);
    let y = f(m, d, &q, &x[1], &x[2]).to_vec();
    let dq = at_zero(&jacobian(&y, &delta).concat(), &delta);
    let dv = at_zero(&jacobian(&y, &x[1]).concat(), &delta);
    (dq, dv)
}
