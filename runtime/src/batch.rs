//! One algorithm over many states: the runtime's counterpart of the
//! generated code's `lanes::NAME_batch` and `NAME_batch_par`, for comparison
//! and for models known only at run time.
//!
//! [`batch`] calls a function of the runtime once per state with one [`Data`]
//! reused throughout (no allocation per state beyond what the function
//! itself returns); [`batch_par`] (feature `rayon`) splits the states across
//! rayon's thread pool, one `Data` per task. Both give each state the numbers
//! of a call on its own.
//!
//! ```
//! use rbdgen_runtime::{batch::batch, rnea, Data, Model};
//! let urdf = concat!(env!("CARGO_MANIFEST_DIR"), "/../models/z1.urdf");
//! let model = Model::from_urdf_file(urdf, false).unwrap();
//! // (q, v, a) per state; one τ per state.
//! let states = vec![(model.neutral(), vec![0.1; model.nv], vec![0.2; model.nv]); 5];
//! let mut out = vec![vec![0.0; model.nv]; 5];
//! let mut data = Data::new(&model);
//! batch(&model, &mut data, &states, &mut out, |model, data, (q, v, a), tau| {
//!     tau.copy_from_slice(rnea(model, data, q, v, a)?);
//!     Ok(())
//! })
//! .unwrap();
//! assert_eq!(out[4], rnea(&model, &mut data, &states[4].0, &states[4].1, &states[4].2).unwrap());
//! ```

use crate::algorithms::{check_data, check_len};
use crate::error::InputError;
use crate::{Data, Model, Scalar};

/// `f(model, data, &states[k], &mut out[k])` for every `k`, in order, with the
/// one workspace `data` (a `Data::new(model)`): `f` calls a runtime algorithm
/// and writes its result into its output entry.
///
/// # Errors
/// [`InputError::Length`] (argument `out`, expected `states.len()`) when
/// `states` and `out` differ in length, [`InputError::Data`] when `data` was
/// built for another model: `f` is not called then. Otherwise the first
/// error `f` returns, which stops the loop (the entries of `out` before that
/// state are written).
pub fn batch<S: Scalar, I, O>(
    model: &Model,
    data: &mut Data<S>,
    states: &[I],
    out: &mut [O],
    f: impl Fn(&Model, &mut Data<S>, &I, &mut O) -> Result<(), InputError>,
) -> Result<(), InputError> {
    check_data(model, data)?;
    check_len("out", out.len(), states.len())?;
    for (state, out) in states.iter().zip(out.iter_mut()) {
        f(model, data, state, out)?;
    }
    Ok(())
}

/// [`batch`] split across rayon's thread pool: the states are shared among
/// rayon's tasks, each with its own `Data::new(model)` (rayon's
/// `try_for_each_init`: one workspace per task, not per state). Each entry of
/// `out` is the same as [`batch`]'s.
///
/// # Errors
/// [`InputError::Length`] (argument `out`, expected `states.len()`) when
/// `states` and `out` differ in length: `f` is not called then. Otherwise an
/// error `f` returns, which stops the tasks (which entries of `out` are
/// written then is unspecified).
#[cfg(feature = "rayon")]
pub fn batch_par<S, I, O>(
    model: &Model,
    states: &[I],
    out: &mut [O],
    f: impl Fn(&Model, &mut Data<S>, &I, &mut O) -> Result<(), InputError> + Sync + Send,
) -> Result<(), InputError>
where
    S: Scalar + Send,
    I: Sync,
    O: Send,
{
    use rayon::prelude::*;
    check_len("out", out.len(), states.len())?;
    out.par_iter_mut().zip(states.par_iter()).try_for_each_init(
        || Data::new(model),
        |data, (out, state)| f(model, data, state, out),
    )
}
