//! Why code could not be generated: one error type for every stage and
//! every output, with the option it names spelt as the front end spells it.

use rbdgen_runtime::ModelError;
use thiserror::Error;

use crate::options::{OptionError, OptionKey, OptionSpec};

/// Why code could not be generated.
#[derive(Debug, Error)]
pub enum GenerateError {
    /// The URDF does not make a model.
    #[error(transparent)]
    Model(#[from] ModelError),
    /// Tracing produced a non-finite constant (for example a massless subtree
    /// that ABA would divide by), or a constant that the scalar type cannot hold.
    #[error("{function}: {reason}")]
    NonFinite {
        /// The function being traced.
        function: String,
        /// What went wrong.
        reason: String,
    },
    /// An option is wrong ([`Options::check`](crate::Options::check), [`apply_to_model`](crate::options::apply_to_model)): which
    /// one, which entry, and why.
    #[error(transparent)]
    Option(#[from] OptionError),
    /// A function has more operations than [`Options::max_ops`](crate::Options::max_ops) (displayed
    /// with the option's name; [`GenerateError::render`] spells it as a front
    /// end does).
    #[error("{}", self.render(|s| format!("`{}`", s.name)))]
    TooLarge {
        /// The function refused.
        function: String,
        /// Its operation count (at least; the count stops at the first frame
        /// of a per-frame function that passes the limit).
        ops: usize,
        /// [`Options::max_ops`](crate::Options::max_ops).
        limit: usize,
        /// Whether the function has a column form (`minverse`, the dynamics
        /// derivatives) that a lower [`Options::unroll_limit`](crate::Options::unroll_limit) would take and
        /// that writes out at most `limit` operations.
        loopable: bool,
    },
    /// The runtime refused the traced arguments (an internal error: the
    /// generator builds them from the model's sizes).
    #[error("{function}: {source}")]
    Input {
        /// The function being traced.
        function: String,
        /// What the runtime refused.
        source: rbdgen_runtime::InputError,
    },
    /// A user function's declaration is wrong ([`UserFunction::check`](crate::user::UserFunction::check)), or
    /// two user functions share a name.
    #[error("user function `{name}`: {reason}")]
    UserFunction {
        /// The user function's name.
        name: String,
        /// What is wrong.
        reason: String,
    },
    /// The token stream did not parse as a Rust file (an internal error).
    #[error("generated code does not parse: {0}")]
    Syntax(String),
    /// The Python module was asked for with `scalar = f32` (its numpy arrays
    /// are `float64`).
    #[error("python: the module's arrays are float64; leave out `scalar = f32`")]
    PythonScalar,
    /// The CasADi export ([`casadi_module`](crate::casadi_module)) does not take these options.
    #[error("casadi: {0}")]
    Casadi(String),
}

impl GenerateError {
    /// The message with every option it names spelt by `spell` (the macro's
    /// `` `max_ops` ``, the command line's `--max-ops`, the build script's
    /// `max_ops()`): a wrong option as `OPTION: message`, a function above
    /// the size limit with the option that raises it; other errors as
    /// displayed.
    pub fn render(&self, spell: impl Fn(&OptionSpec) -> String) -> String {
        match self {
            GenerateError::Option(o) => format!("{}: {}", spell(o.option.spec()), o.render(spell)),
            GenerateError::TooLarge {
                function,
                ops,
                limit,
                loopable,
            } => {
                let lower = match loopable {
                    true => format!(
                        ", or lower {} to loop its columns",
                        spell(OptionKey::UnrollLimit.spec())
                    ),
                    false => String::new(),
                };
                format!(
                    "`{function}` has {ops} operations, more than the limit of {limit} per \
                     function (rustc takes about 1 ms per operation at opt-level 3): ask for \
                     fewer functions, or raise the limit with {}{lower}",
                    spell(OptionKey::MaxOps.spec())
                )
            }
            e => e.to_string(),
        }
    }
}
