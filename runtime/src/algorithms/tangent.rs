//! Jacobians in the tangent space by forward-mode dual numbers ([`Dual`]):
//! a function written once over the scalar is evaluated on duals whose
//! tangents are the columns being differentiated, eight at a time. A
//! configuration argument `q` is evaluated at `integrate(q, δ)` with the
//! tangent on `δ` (`δ = 0`), so its columns are Pinocchio's tangent-space
//! derivatives (`nv` of them). On `f64` this gives the derivative functions'
//! numbers; on a symbolic scalar, their traces.

use super::lie_group::integrate;
use crate::error::InputError;
use crate::spatial::{Inertia, Matrix3, Vector3};
use crate::{Data, Dual, Model, Scalar};

/// The tangent columns carried per evaluation.
pub(crate) const LANES: usize = 8;

/// The dual scalar of [`tangent_jacobian`]'s evaluations.
pub(crate) type Tangent<S> = Dual<LANES, S>;

/// An argument of a function to differentiate.
#[derive(Clone, Copy)]
pub(crate) enum Arg<'a, S> {
    /// A configuration `[nq]`, differentiated in the tangent space (`nv` columns).
    Configuration(&'a [S]),
    /// A vector, differentiated entry by entry.
    Vector(&'a [S]),
}

impl<S: Scalar> Arg<'_, S> {
    /// The columns of its block.
    fn width(&self, model: &Model) -> usize {
        match self {
            Arg::Configuration(_) => model.nv,
            Arg::Vector(x) => x.len(),
        }
    }
}

/// `f`'s value and its Jacobian blocks at `args`: `(value, blocks)` with one
/// block per differentiated argument, in order, each `[rows x width]`
/// row-major (`rows` = the value's length, `width` = `nv` for a
/// configuration, the argument's length otherwise).
///
/// `f` gets a [`Data`] of duals that carries `data`'s inertias (run-time
/// parameters included), and the arguments lifted to duals.
///
/// # Errors
/// What `f` or `integrate` returns.
pub(crate) fn tangent_jacobian<S: Scalar>(
    model: &Model,
    data: &Data<S>,
    args: &[Arg<'_, S>],
    f: impl Fn(&mut Data<Tangent<S>>, &[Vec<Tangent<S>>]) -> Result<Vec<Tangent<S>>, InputError>,
) -> Result<(Vec<S>, Vec<Vec<S>>), InputError> {
    let widths: Vec<usize> = args.iter().map(|a| a.width(model)).collect();
    let total: usize = widths.iter().sum();
    let mut dual_data = Data::<Tangent<S>>::new(model);
    for (d, i) in dual_data.inertias.iter_mut().zip(&data.inertias) {
        *d = lift_inertia(i);
    }
    let mut value = Vec::new();
    let mut columns: Vec<Vec<S>> = Vec::with_capacity(total);
    let mut first = 0;
    // At least one evaluation, for the value of a function with no block.
    loop {
        let chunk = first..(first + LANES).min(total);
        let mut lifted = Vec::with_capacity(args.len());
        let mut start = 0;
        for arg in args {
            let seeded = |len: usize, re: &dyn Fn(usize) -> S| -> Vec<Tangent<S>> {
                (0..len)
                    .map(|j| {
                        let col = start + j;
                        let mut x = Dual::new(re(j));
                        if chunk.contains(&col) {
                            x.eps[col - chunk.start] = S::one();
                        }
                        x
                    })
                    .collect()
            };
            lifted.push(match arg {
                Arg::Configuration(q) => {
                    let delta = seeded(model.nv, &|_| S::zero());
                    let q: Vec<Tangent<S>> = q.iter().map(|&x| Dual::new(x)).collect();
                    integrate(model, &q, &delta)?
                }
                Arg::Vector(x) => seeded(x.len(), &|j| x[j]),
            });
            start += arg.width(model);
        }
        let out = f(&mut dual_data, &lifted)?;
        if first == 0 {
            value = out.iter().map(|x| x.re).collect();
        }
        for lane in 0..chunk.len() {
            columns.push(out.iter().map(|x| x.eps[lane]).collect());
        }
        first += LANES;
        if first >= total {
            break;
        }
    }
    let rows = value.len();
    let mut blocks = Vec::new();
    let mut start = 0;
    for width in widths {
        let mut block = Vec::with_capacity(rows * width);
        for r in 0..rows {
            block.extend((start..start + width).map(|c| columns[c][r]));
        }
        blocks.push(block);
        start += width;
    }
    Ok((value, blocks))
}

/// An inertia on `S` as one on duals with no tangent.
fn lift_inertia<S: Scalar>(i: &Inertia<S>) -> Inertia<Tangent<S>> {
    Inertia {
        mass: Dual::new(i.mass),
        first_moment: Vector3(i.first_moment.0.map(Dual::new)),
        rotational: Matrix3(i.rotational.0.map(|row| row.map(Dual::new))),
    }
}

/// The rows `rows` of a `[.. x cols]` row-major block.
pub(crate) fn row_range<S: Copy>(
    block: &[S],
    cols: usize,
    rows: core::ops::Range<usize>,
) -> Vec<S> {
    block[rows.start * cols..rows.end * cols].to_vec()
}

/// The derivatives of the frame, contact, impulse and centroidal functions by
/// forward-mode dual numbers through the functions themselves: the test
/// oracles of their analytical passes (same signatures and results; `nv`
/// dual directions, each paying the forward work again, so slow).
pub mod dual_oracle {
    use super::{row_range, tangent_jacobian, Arg};
    use crate::algorithms::centroidal::{centroidal_momentum, CentroidalDerivatives};
    use crate::algorithms::contact::{
        contact_acceleration, contact_dynamics, contact_inverse_dynamics, contact_jacobian,
        contact_rows, Kkt,
    };
    use crate::algorithms::contact_derivatives::{
        impulse_dynamics, ContactDynamicsDerivatives, ImpulseDynamicsDerivatives,
    };
    use crate::algorithms::derivatives::Rows;
    use crate::algorithms::{
        centroidal_momentum_rate, crba, frame_acceleration, frame_velocity, ReferenceFrame,
    };
    use crate::error::InputError;
    use crate::{Contact, Data, Dual, Model, Scalar};

    fn lift<S: Scalar, const N: usize>(x: &[S]) -> Vec<Dual<N, S>> {
        x.iter().map(|&x| Dual::new(x)).collect()
    }

    /// [`crate::frame_velocity_derivatives`] by dual numbers.
    ///
    /// # Errors
    /// As [`crate::frame_velocity`].
    pub fn frame_velocity_derivatives<S: Scalar>(
        model: &Model,
        data: &mut Data<S>,
        q: &[S],
        v: &[S],
        frame: usize,
        reference: ReferenceFrame,
    ) -> Result<(Vec<S>, Vec<S>), InputError> {
        let args = [Arg::Configuration(q), Arg::Vector(v)];
        let (_, mut d) = tangent_jacobian(model, data, &args, |data, x| {
            Ok(frame_velocity(model, data, &x[0], &x[1], frame, reference)?
                .to_array()
                .to_vec())
        })?;
        let dv_dv = d.pop().expect("two blocks");
        Ok((d.pop().expect("two blocks"), dv_dv))
    }

    /// [`crate::frame_acceleration_derivatives`] by dual numbers.
    ///
    /// # Errors
    /// As [`crate::frame_acceleration`].
    pub fn frame_acceleration_derivatives<S: Scalar>(
        model: &Model,
        data: &mut Data<S>,
        q: &[S],
        v: &[S],
        a: &[S],
        frame: usize,
        reference: ReferenceFrame,
    ) -> Result<(Vec<S>, Vec<S>, Vec<S>), InputError> {
        let args = [Arg::Configuration(q), Arg::Vector(v), Arg::Vector(a)];
        let (_, d) = tangent_jacobian(model, data, &args, |data, x| {
            Ok(
                frame_acceleration(model, data, &x[0], &x[1], &x[2], frame, reference)?
                    .to_array()
                    .to_vec(),
            )
        })?;
        let [dq, dv, da]: [Vec<S>; 3] = d.try_into().expect("three blocks");
        Ok((dq, dv, da))
    }

    /// [`crate::contact_drift_derivatives`] by dual numbers.
    ///
    /// # Errors
    /// As [`crate::contact_drift`].
    pub fn contact_drift_derivatives<S: Scalar>(
        model: &Model,
        data: &mut Data<S>,
        q: &[S],
        v: &[S],
        contacts: &[Contact],
    ) -> Result<(Vec<S>, Vec<S>), InputError> {
        crate::contact_drift(model, data, q, v, contacts)?;
        let args = [Arg::Configuration(q), Arg::Vector(v)];
        let (_, mut d) = tangent_jacobian(model, data, &args, |data, x| {
            Ok(contact_acceleration(
                model, data, &x[0], &x[1], None, contacts,
            ))
        })?;
        let dv = d.pop().expect("two blocks");
        Ok((d.pop().expect("two blocks"), dv))
    }

    /// [`crate::contact_inverse_dynamics_derivatives`] by dual numbers.
    ///
    /// # Errors
    /// As [`crate::contact_inverse_dynamics`].
    #[allow(clippy::type_complexity)]
    pub fn contact_inverse_dynamics_derivatives<S: Scalar>(
        model: &Model,
        data: &mut Data<S>,
        q: &[S],
        v: &[S],
        ddq: &[S],
        lambda: &[S],
        contacts: &[Contact],
    ) -> Result<(Vec<S>, Vec<S>, Vec<S>, Vec<S>), InputError> {
        contact_inverse_dynamics(model, data, q, v, ddq, lambda, contacts)?;
        let args = [
            Arg::Configuration(q),
            Arg::Vector(v),
            Arg::Vector(ddq),
            Arg::Vector(lambda),
        ];
        let (_, d) = tangent_jacobian(model, data, &args, |data, x| {
            contact_inverse_dynamics(model, data, &x[0], &x[1], &x[2], &x[3], contacts)
        })?;
        let [dq, dv, da, dl]: [Vec<S>; 4] = d.try_into().expect("four blocks");
        Ok((dq, dv, da, dl))
    }

    /// [`crate::contact_dynamics_derivatives`] by dual numbers through the
    /// residual, then the implicit function theorem.
    ///
    /// # Errors
    /// As [`crate::contact_dynamics`].
    pub fn contact_dynamics_derivatives<S: Scalar>(
        model: &Model,
        data: &mut Data<S>,
        q: &[S],
        v: &[S],
        tau: &[S],
        contacts: &[Contact],
        damping: S,
    ) -> Result<ContactDynamicsDerivatives<S>, InputError> {
        let (ddq, lambda) = contact_dynamics(model, data, q, v, tau, contacts, damping)?;
        let nv = model.nv;
        let args = [Arg::Configuration(q), Arg::Vector(v)];
        let (_, d) = tangent_jacobian(model, data, &args, |data, x| {
            let (a, l) = (lift(&ddq), lift(&lambda));
            let mut f = contact_inverse_dynamics(model, data, &x[0], &x[1], &a, &l, contacts)?;
            f.extend(contact_acceleration(
                model,
                data,
                &x[0],
                &x[1],
                Some(&a),
                contacts,
            ));
            Ok(f)
        })?;
        let kkt = Kkt::factor(model, data, q, contacts, damping)?;
        let minus = |d: &[S]| d.iter().map(|&x| -x).collect::<Vec<S>>();
        let (ddq_dq, dlambda_dq) = kkt.solve(model, data, &minus(&d[0]), nv, Rows::All);
        let (ddq_dv, dlambda_dv) = kkt.solve(model, data, &minus(&d[1]), nv, Rows::All);
        let nc = contact_rows(contacts);
        let mut identity = vec![S::zero(); (nv + nc) * nv];
        for k in 0..nv {
            identity[k * nv + k] = S::one();
        }
        let (ddq_dtau, dlambda_dtau) = kkt.solve(model, data, &identity, nv, Rows::All);
        Ok(ContactDynamicsDerivatives {
            ddq,
            lambda,
            ddq_dq,
            ddq_dv,
            ddq_dtau,
            dlambda_dq,
            dlambda_dv,
            dlambda_dtau,
        })
    }

    /// [`crate::impulse_dynamics_derivatives`] by dual numbers through the
    /// residual, then the implicit function theorem.
    ///
    /// # Errors
    /// As [`crate::impulse_dynamics`].
    pub fn impulse_dynamics_derivatives<S: Scalar>(
        model: &Model,
        data: &mut Data<S>,
        q: &[S],
        v: &[S],
        contacts: &[Contact],
        restitution: S,
        damping: S,
    ) -> Result<ImpulseDynamicsDerivatives<S>, InputError> {
        let (v_plus, impulse) =
            impulse_dynamics(model, data, q, v, contacts, restitution, damping)?;
        let (nv, nc) = (model.nv, contact_rows(contacts));
        let args = [Arg::Configuration(q), Arg::Vector(v)];
        let (_, d) = tangent_jacobian(model, data, &args, |data, x| {
            let (q, v) = (&x[0], &x[1]);
            let (v_plus, impulse) = (lift(&v_plus), lift(&impulse));
            let (e, mu) = (Dual::new(restitution), Dual::new(damping));
            let jc = contact_jacobian(model, data, q, contacts)?;
            let m = crba(model, data, q)?;
            let mut f: Vec<_> = (0..nv)
                .map(|i| {
                    let mv = (0..nv).fold(Dual::new(S::zero()), |s, k| {
                        s + m[i * nv + k] * (v_plus[k] - v[k])
                    });
                    (0..nc).fold(mv, |s, r| s - jc[r * nv + i] * impulse[r])
                })
                .collect();
            f.extend((0..nc).map(|r| {
                (0..nv).fold(mu * impulse[r], |s, k| {
                    s + jc[r * nv + k] * (v_plus[k] + e * v[k])
                })
            }));
            Ok(f)
        })?;
        let kkt = Kkt::factor(model, data, q, contacts, damping)?;
        let minus = |d: &[S]| d.iter().map(|&x| -x).collect::<Vec<S>>();
        let (dvplus_dq, dimpulse_dq) = kkt.solve(model, data, &minus(&d[0]), nv, Rows::All);
        let (dvplus_dv, dimpulse_dv) = kkt.solve(model, data, &minus(&d[1]), nv, Rows::All);
        Ok(ImpulseDynamicsDerivatives {
            dvplus_dq,
            dvplus_dv,
            dimpulse_dq,
            dimpulse_dv,
        })
    }

    /// [`crate::centroidal_dynamics_derivatives`] by dual numbers.
    ///
    /// # Errors
    /// As [`crate::centroidal_momentum_rate`].
    pub fn centroidal_dynamics_derivatives<S: Scalar>(
        model: &Model,
        data: &mut Data<S>,
        q: &[S],
        v: &[S],
        a: &[S],
    ) -> Result<CentroidalDerivatives<S>, InputError> {
        centroidal_momentum_rate(model, data, q, v, a)?;
        let args = [Arg::Configuration(q), Arg::Vector(v), Arg::Vector(a)];
        let (_, d) = tangent_jacobian(model, data, &args, |data, x| {
            let hg = centroidal_momentum(model, data, &x[0], &x[1]);
            let dhg = centroidal_momentum_rate(model, data, &x[0], &x[1], &x[2])?;
            Ok([hg.to_array(), dhg.to_array()].concat())
        })?;
        let nv = model.nv;
        Ok(CentroidalDerivatives {
            dh_dq: row_range(&d[0], nv, 0..6),
            dhdot_dq: row_range(&d[0], nv, 6..12),
            dhdot_dv: row_range(&d[1], nv, 6..12),
            dhdot_da: row_range(&d[2], nv, 6..12),
        })
    }
}
