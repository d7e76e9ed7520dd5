//! Generated `rnea_derivatives_fext` against Pinocchio's
//! `computeRNEADerivatives(model, data, q, v, a, fext)` (1e-8,
//! tests/reference/fext_derivatives/) and the runtime's dual-number
//! `rnea_derivatives_fext` (1e-10).

#[path = "../runtime/tests/common/mod.rs"]
mod common;

use common::{assert_close, flat, random_q, random_vec, Reference};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen::runtime::{rnea_derivatives_fext, Data, Force};

rbdgen::robot_dynamics!(mod go2_z1, "models/go2_z1.urdf", floating_base, functions = [rnea_derivatives_fext]);
rbdgen::robot_dynamics!(mod z1, "models/z1.urdf", functions = [rnea_derivatives_fext]);
// The column form: each column of `∂τ` by the code of its chain, looped.
rbdgen::robot_dynamics!(mod z1_looped, "models/z1.urdf", unroll_limit = 0, functions = [rnea_derivatives_fext]);

macro_rules! fext_derivative_tests {
    ($tests:ident, $robot:ident, $reference:literal) => {
        mod $tests {
            use super::$robot::{NJOINTS, NQ, NV};
            use super::*;

            fn rows(x: &[f64]) -> [[f64; 6]; NJOINTS] {
                core::array::from_fn(|i| x[6 * i..6 * i + 6].try_into().unwrap())
            }

            #[test]
            fn match_pinocchio() {
                let r = Reference::load(concat!("fext_derivatives/", $reference));
                for s in r.states() {
                    let q: [f64; NQ] = flat(&s["q"]).try_into().unwrap();
                    let v: [f64; NV] = flat(&s["v"]).try_into().unwrap();
                    let a: [f64; NV] = flat(&s["a"]).try_into().unwrap();
                    let fext = rows(&flat(&s["fext"]));
                    let (dq, dv, da) = super::$robot::rnea_derivatives_fext(&q, &v, &a, &fext);
                    assert_close("dtau_dq", dq.as_flattened(), &flat(&s["dtau_dq"]), 1e-8);
                    assert_close("dtau_dv", dv.as_flattened(), &flat(&s["dtau_dv"]), 1e-8);
                    assert_close("dtau_da", da.as_flattened(), &flat(&s["dtau_da"]), 1e-8);
                }
            }

            #[test]
            fn match_runtime_on_random_states() {
                let r = Reference::load(concat!("fext_derivatives/", $reference));
                let model = &r.model;
                let mut data = Data::<f64>::new(model);
                let mut rng = ChaCha8Rng::seed_from_u64(23);
                for _ in 0..10 {
                    let q = random_q(model, &mut rng);
                    let v = random_vec(NV, 1.0, &mut rng);
                    let a = random_vec(NV, 3.0, &mut rng);
                    let f = random_vec(6 * NJOINTS, 2.0, &mut rng);
                    let forces: Vec<Force<f64>> = f.chunks(6).map(Force::from_slice).collect();
                    let (dq, dv, da) = super::$robot::rnea_derivatives_fext(
                        q.as_slice().try_into().unwrap(),
                        v.as_slice().try_into().unwrap(),
                        a.as_slice().try_into().unwrap(),
                        &rows(&f),
                    );
                    let want =
                        rnea_derivatives_fext(model, &mut data, &q, &v, &a, &forces).unwrap();
                    assert_close("dtau_dq", dq.as_flattened(), &want.d_dq, 1e-10);
                    assert_close("dtau_dv", dv.as_flattened(), &want.d_dv, 1e-10);
                    assert_close("dtau_da", da.as_flattened(), &want.d_du, 1e-10);
                }
            }
        }
    };
}

fext_derivative_tests!(go2_z1_fext_derivatives, go2_z1, "go2_z1_floating");
fext_derivative_tests!(z1_fext_derivatives, z1, "z1_fixed");
fext_derivative_tests!(z1_looped_fext_derivatives, z1_looped, "z1_fixed");
