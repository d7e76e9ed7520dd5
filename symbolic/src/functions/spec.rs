//! What the table says of a function ([`Spec`]): its arguments' lengths
//! ([`Dim`]), its output ([`Output`]), its documentation and its evaluation
//! on a scalar ([`EvaluateFn`]).

use rbdgen_runtime::{actuated_dofs, contact_rows, Data, InputError, Model};

/// A length in a generated signature.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dim {
    /// `NQ`.
    Nq,
    /// `NV`.
    Nv,
    /// A fixed number.
    Fixed(usize),
    /// One wrench `[linear; angular]` per joint id, the universe included: an
    /// argument `&[[f64; 6]; NJOINTS]` (Pinocchio's `fext`), traced flat,
    /// `6 * NJOINTS` long.
    Wrenches,
    /// `NU`: the actuated dofs (every dof but a free-flyer's; the runtime's
    /// `actuated_dofs`).
    Nu,
    /// `2 * NV`: the state `(δq, δv)` of a linearization.
    TwoNv,
    /// A placement as a 4 x 4 homogeneous matrix: an argument `&[[f64; 4]; 4]`,
    /// traced flat, 16 long.
    Placement,
    /// A scalar argument `f64` (a step size), traced as one input.
    Scalar,
    /// `NC`: the rows of the contact set (`Model::contacts`): 3 per point, 6
    /// per 6-D contact.
    Contacts,
    /// The inertial parameters of the links of `Model::parameters`: an
    /// argument `&[[f64; 10]; NPARAMETERS]`, traced flat.
    Parameters,
    /// `10 * (NJOINTS - 1)`: the inertial parameters of every joint's body
    /// (the columns of the torque regressor).
    Regressor,
}

impl Dim {
    /// The number for `model` (of scalars, for [`Dim::Wrenches`]).
    pub fn len(self, model: &Model) -> usize {
        match self {
            Dim::Nq => model.nq,
            Dim::Nv => model.nv,
            Dim::Fixed(n) => n,
            Dim::Wrenches => 6 * model.njoints(),
            Dim::Nu => actuated_dofs(model).len(),
            Dim::TwoNv => 2 * model.nv,
            Dim::Placement => 16,
            Dim::Scalar => 1,
            Dim::Contacts => contact_rows(&model.contacts),
            Dim::Parameters => 10 * model.parameters.len(),
            Dim::Regressor => 10 * (model.njoints() - 1),
        }
    }

    /// The length of the rows of an argument that is an array of rows
    /// (`[[f64; 6]; NJOINTS]` for [`Dim::Wrenches`], `[[f64; 4]; 4]` for
    /// [`Dim::Placement`]), `Some(0)` for a scalar argument ([`Dim::Scalar`]),
    /// `None` for a flat one.
    pub fn row_len(self) -> Option<usize> {
        match self {
            Dim::Wrenches => Some(6),
            Dim::Placement => Some(4),
            Dim::Parameters => Some(10),
            Dim::Scalar => Some(0),
            Dim::Nq
            | Dim::Nv
            | Dim::Fixed(_)
            | Dim::Nu
            | Dim::TwoNv
            | Dim::Contacts
            | Dim::Regressor => None,
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
    /// A tuple of the given outputs (none of them a tuple), traced as their
    /// flat outputs one after the other.
    Tuple(&'static [Output]),
}

impl Output {
    /// The number of scalars of the output for `model`.
    pub fn len(self, model: &Model) -> usize {
        match self {
            Output::Scalar => 1,
            Output::Vector(n) => n.len(model),
            Output::Matrix(r, c) => r.len(model) * c.len(model),
            Output::Tuple(parts) => parts.iter().map(|p| p.len(model)).sum(),
        }
    }
}

/// A function's evaluation on the scalar `S`: the runtime's generic algorithm
/// on arguments of `S` (one `Vec` per argument, in order), for the frame
/// index given to per-frame functions; returns the outputs flattened
/// row-major.
pub type EvaluateFn<S> =
    fn(&Model, &mut Data<S>, &[Vec<S>], Option<usize>) -> Result<Vec<S>, InputError>;

/// One entry of the table: everything emission needs to know about a
/// function, and its evaluation on the scalar `S`.
pub struct Spec<S> {
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
    /// The evaluation on `S`, which [`Function::evaluate`](super::Function::evaluate) runs (on
    /// `Expr`: the trace).
    pub evaluate: EvaluateFn<S>,
}
