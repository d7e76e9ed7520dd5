//! The eval format (the project's `eval-format.md`): reading the states of a
//! file, computing every quantity of a state with the runtime, writing the same
//! format, and comparing two files within the spec tolerance.
//!
//! A file is `{"model": header, "states": [state, ...]}`. The header may carry
//! the whole-body inputs `armature` and `contacts`, which change what the
//! dynamics mean. A state holds the inputs `q v a tau w q2` (and `fext` for
//! the whole-body extension) and one entry per quantity (`rnea`, `crba`,
//! `frames.NAME.placement`, `contact_dynamics`, ...), with Pinocchio's
//! conventions: matrices as arrays of rows, spatial vectors `[linear;
//! angular]`, SI units.
//!
//! [`PARTS`] is the one table of the format's quantities: each names the
//! function of the generator's table ([`Function`](rbdgen_symbolic::Function)) that computes it, and the
//! runtime computes it with that function's generic evaluation on `f64`
//! ([`Function::evaluate`](rbdgen_symbolic::Function::evaluate)), as the generated code does with its compiled
//! counterpart (`rbdgen eval --backend generated`). A quantity is absent
//! where the state or model lacks its function's inputs ([`unavailable`]: no
//! `fext`, no contact set), and [`compare`] reports it as not computed.
//!
//! By job: `file.rs` reads and writes the documents ([`Header`], [`State`],
//! [`StatesFile`]), `parts.rs` is the table of quantities ([`PARTS`]),
//! `evaluate.rs` computes them with the runtime ([`evaluate()`]) and
//! `compare.rs` compares two documents ([`compare()`]).

use thiserror::Error;

mod compare;
mod evaluate;
mod file;
mod parts;

pub use compare::{compare, Comparison, QuantityReport, Status};
pub use evaluate::{
    arguments, evaluate, evaluate_state, keep_frames, omi, prepare, quantities_of, runtime_outputs,
    unavailable,
};
pub use file::{Header, State, StatesFile};
pub use parts::{frame_quantities, functions, quantities, Part, OMI, OUTSIDE_FORMAT, PARTS};

/// The spec tolerance: a quantity matches when
/// `|ours - ref| <= TOLERANCE * max(1, max|ref|)`, the max over that quantity
/// in that state.
pub const TOLERANCE: f64 = 1e-8;

/// The inputs of a state, in the order of the format.
pub const INPUTS: [&str; 6] = ["q", "v", "a", "tau", "w", "q2"];

/// The key of a reference state that names the quantities left out because
/// Pinocchio's values are NaN or infinite (`make_reference.py
/// --omit-nonfinite`): `["aba", "frames.NAME.jacobian_local", ...]`.
pub const NONFINITE: &str = "nonfinite";

/// The key of a reference state that records quantities recomputed with LAPACK
/// because Pinocchio's own carry rounding errors of order cond(M)·ε
/// (`make_reference.py --refine-ill-conditioned`): `{"cond": ..., "quantities": [...]}`.
pub const REFINED: &str = "refined";

/// Why a file could not be read, evaluated or compared. Every variant names the
/// field, state or model element at fault.
#[derive(Debug, Error)]
pub enum EvalError {
    /// The text is not JSON.
    #[error("not JSON: {0}")]
    Json(String),
    /// A field is missing or has the wrong type; `path` is like `states[2].q`.
    #[error("`{path}`: {reason}")]
    Format {
        /// Where in the document.
        path: String,
        /// What is wrong.
        reason: String,
    },
    /// An input of a state has the wrong length for the model.
    #[error("states[{state}].{input} has length {got}, the model needs {want}")]
    Length {
        /// Index of the state.
        state: usize,
        /// The input (`q`, `v`, ...).
        input: &'static str,
        /// Its length in the file (wrenches for `fext`).
        got: usize,
        /// `nq` or `nv` of the model (`njoints` for `fext`).
        want: usize,
    },
    /// The model built from the URDF is not the one the file's header describes.
    #[error("the model does not match the file's header: {0}")]
    ModelMismatch(String),
    /// Two files that [`compare`] cannot put side by side (other model, other
    /// states, other shapes of the same quantity are failures, not errors).
    #[error("the files cannot be compared: {0}")]
    Incomparable(String),
}
