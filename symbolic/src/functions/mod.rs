//! The table of functions a generated module can contain: for each, its
//! arguments, output shape, documentation and its evaluation by the runtime's
//! generic algorithm, written once over the scalar ([`Function::evaluate`]):
//! on [`Expr`](crate::Expr) it is the trace that emission compiles, on `f64` the reference
//! value that `rbdgen verify`, `rbdgen eval` and the benches compare with, on
//! a dual number its derivatives. Adding a function is adding its row to the
//! one list ([`for_each_function!`](crate::for_each_function) in list.rs: the
//! variant, its name, its family and the predicates' columns) and its [`Spec`]
//! to its family's file (dynamics.rs, kinematics.rs, centroidal.rs,
//! derivatives.rs, lie_group.rs, contact.rs); the enum, [`Function::ALL`], the
//! names and the predicates are generated from the list, and emission and the
//! front ends need no change.
//!
//! A Jacobian with respect to one of two arguments (Pinocchio's `ARG0` /
//! `ARG1`) is a function of its own, named after that argument:
//! `d_integrate_dq` / `d_integrate_dv` are `dIntegrate(.., ARG0 / ARG1)`,
//! `d_difference_dq0` / `d_difference_dq1` are `dDifference(.., ARG0 / ARG1)`
//! (the runtime's `d_integrate` / `d_difference` take an `ArgumentPosition`).
//! Each is emitted only when asked for, and compiling one does not pay for the
//! other.

use rbdgen_runtime::{set_link_parameters, Data, Force, InputError, Model, Scalar};

mod centroidal;
mod column_forms;
mod contact;
mod derivatives;
mod dynamics;
mod kinematics;
mod lie_group;
mod list;
mod spec;

pub use column_forms::{Columns, Kernel, Looped};
pub use spec::{Dim, EvaluateFn, Output, Spec};

/// The enum [`Function`] and what the list says of each function: the
/// callback of [`for_each_function!`](crate::for_each_function).
macro_rules! define_functions {
    ($($block:ident: [$(
        $(#[$attr:meta])*
        $variant:ident {
            name: $name:ident, family: $family:ident,
            contacts: $contacts:literal, inertias: $inertias:literal, ad_form: $ad_form:expr,
        },
    )*])*) => {
        /// A function the generated module can contain.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Function {
            $($(
                $(#[$attr])*
                $variant,
            )*)*
        }

        impl Function {
            /// Every function, in emission order.
            pub const ALL: [Function; [$($(Function::$variant,)*)*].len()] =
                [$($(Function::$variant,)*)*];

            /// The generated function's name, as the runtime's.
            pub fn name(self) -> &'static str {
                match self {
                    $($(Function::$variant => stringify!($name),)*)*
                }
            }

            /// The function called `name`.
            pub fn from_name(name: &str) -> Option<Function> {
                match name {
                    $($(stringify!($name) => Some(Function::$variant),)*)*
                    _ => None,
                }
            }

            /// Whether the function is defined by a contact set (`Model::contacts`):
            /// it cannot be generated without one.
            pub fn needs_contacts(self) -> bool {
                match self {
                    $($(Function::$variant => $contacts,)*)*
                }
            }

            /// Whether the function reads the bodies' inertias, so that it takes the
            /// run-time inertial parameters of `Model::parameters` when there are any.
            pub fn reads_inertias(self) -> bool {
                match self {
                    $($(Function::$variant => $inertias,)*)*
                }
            }

            /// The function whose Jacobian this analytical derivative is, where the
            /// Jacobian by automatic differentiation (`NAME_jacobian`) gives the
            /// same numbers: `rnea` for `rnea_derivatives`, `aba` for
            /// `aba_derivatives`, `center_of_mass` for `jacobian_center_of_mass` (the
            /// `fext` forms' Jacobians have a block for `fext` besides).
            pub fn ad_form(self) -> Option<Function> {
                match self {
                    $($(Function::$variant => $ad_form,)*)*
                }
            }

            /// This function's entry of the table, its evaluation on `S`: the
            /// function `name` of its family's module, one generic
            /// implementation per function, so tracing (`S = Expr`), reference
            /// values (`f64`) and dual-number checks run the same code.
            fn entry<S: Scalar>(self) -> Spec<S> {
                match self {
                    $($(Function::$variant => $family::$name(stringify!($name)),)*)*
                }
            }
        }
    };
}

crate::for_each_function!(define_functions!());

impl Function {
    /// This function's entry of the table: name, arguments, output, doc
    /// (and its evaluation on `f64`, which [`Function::evaluate`] runs).
    pub fn spec(self) -> Spec<f64> {
        self.entry()
    }

    /// The function a user coming from Pinocchio or the textbooks most
    /// likely means by `name` when it is none of ours: `inverse_dynamics` →
    /// `rnea`, `computeMinverse` → `minverse`. Case and underscores are
    /// ignored; `None` for a name without a counterpart here.
    pub fn alias(name: &str) -> Option<Function> {
        const ALIASES: &[(&str, Function)] = &[
            ("inversedynamics", Function::Rnea),
            ("forwarddynamics", Function::Aba),
            ("massmatrix", Function::Crba),
            ("computeminverse", Function::Minverse),
            ("inversemassmatrix", Function::Minverse),
            ("nle", Function::NonlinearEffects),
            ("computegeneralizedgravity", Function::GeneralizedGravity),
            ("gravity", Function::GeneralizedGravity),
            ("com", Function::CenterOfMass),
            ("jacobiancenterofmass", Function::JacobianCenterOfMass),
            ("centroidalmomentummatrix", Function::Ccrba),
            ("forwardkinematics", Function::FramePlacement),
            ("framesforwardkinematics", Function::FramePlacement),
            ("constraintdynamics", Function::ContactDynamics),
            (
                "computeconstraintdynamicsderivatives",
                Function::ContactDynamicsDerivatives,
            ),
            ("computerneaderivatives", Function::RneaDerivatives),
            ("computeabaderivatives", Function::AbaDerivatives),
            (
                "computecentroidaldynamicsderivatives",
                Function::CentroidalDynamicsDerivatives,
            ),
        ];
        let folded: String = name
            .chars()
            .filter(|c| *c != '_')
            .flat_map(char::to_lowercase)
            .collect();
        ALIASES
            .iter()
            .find(|(alias, _)| *alias == folded)
            .map(|&(_, f)| f)
    }

    /// The functions generated when none are named: all of them, but those
    /// that need a contact set when `model` has none.
    pub fn default_set(model: &Model) -> Vec<Function> {
        Self::ALL
            .into_iter()
            .filter(|f| !f.needs_contacts() || !model.contacts.is_empty())
            .collect()
    }

    /// The arguments of the function for `model`: the table's, then `pi`
    /// (the inertial parameters of `model.parameters`, [`Dim::Parameters`])
    /// when the model has run-time parameters and the function reads inertias.
    pub fn args(self, model: &Model) -> Vec<(&'static str, Dim)> {
        let mut args = self.spec().args.to_vec();
        if !model.parameters.is_empty() && self.reads_inertias() {
            args.push(("pi", Dim::Parameters));
        }
        args
    }

    /// Runs the function's generic algorithm on `x` (one `Vec` per argument of
    /// [`Function::args`]) for a frame index of per-frame functions: sets the
    /// run-time parameters from `pi` when it is there, then calls the table's
    /// evaluation. Returns the outputs flattened row-major.
    ///
    /// The one implementation of the function for every scalar: on [`Expr`](crate::Expr)
    /// it traces the graph that emission compiles, on `f64` it computes the
    /// reference value, on a dual number (`rbdgen_runtime::Dual`) its
    /// directional derivatives.
    ///
    /// # Errors
    /// [`InputError::Length`] when `x` does not hold one argument per
    /// [`Function::args`] (argument `x`) or an argument has the wrong length
    /// for `model` (named as in [`Function::args`]), [`InputError::Index`]
    /// when `frame` is not a frame index, [`InputError::Data`] when `data`
    /// was built for another model; checked before anything is written.
    ///
    /// # Panics
    /// When `frame` is `None` for a per-frame function ([`Spec::per_frame`]):
    /// a call that does not know which function it makes.
    pub fn evaluate<S: Scalar>(
        self,
        model: &Model,
        data: &mut Data<S>,
        x: &[Vec<S>],
        frame: Option<usize>,
    ) -> Result<Vec<S>, InputError> {
        let args = self.args(model);
        if x.len() != args.len() {
            return Err(InputError::Length {
                argument: "x",
                len: x.len(),
                expected: args.len(),
            });
        }
        for ((argument, dim), x) in args.into_iter().zip(x) {
            let expected = dim.len(model);
            if x.len() != expected {
                return Err(InputError::Length {
                    argument,
                    len: x.len(),
                    expected,
                });
            }
        }
        data.check(model)?;
        let entry = self.entry::<S>();
        let n = entry.args.len();
        if x.len() > n {
            set_link_parameters(model, data, &x[n])?;
        }
        (entry.evaluate)(model, data, &x[..n], frame)
    }
}

/// A flat `[6 * NJOINTS]` argument as one wrench per joint id.
fn wrenches<S: Scalar>(model: &Model, x: &[S]) -> Result<Vec<Force<S>>, InputError> {
    let expected = Dim::Wrenches.len(model);
    if x.len() != expected {
        return Err(InputError::Length {
            argument: "fext",
            len: x.len(),
            expected,
        });
    }
    Ok(x.chunks(6).map(Force::from_slice).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `Function::ALL` (the list's order) is the derived `Ord`'s order, and
    /// each name reads back to its function.
    #[test]
    fn all_is_ordered_and_names_read_back() {
        assert!(Function::ALL.windows(2).all(|w| w[0] < w[1]));
        for f in Function::ALL {
            assert_eq!(Function::from_name(f.name()), Some(f));
        }
        assert_eq!(Function::from_name("nope"), None);
    }
}
