//! Single-precision generated code for Go2+Z1 against the f64 runtime: the
//! accuracy the guide states (docs/guide.md, "Single precision"), asserted.

#[path = "../../runtime/tests/common/mod.rs"]
mod common;

use common::{random_q, random_vec};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_cli::check::relative_error;
use rbdgen_runtime::{aba, crba, rnea, Data, Model};

rbdgen::robot_dynamics!(
    mod go2_z1_f32,
    "../models/go2_z1.urdf",
    floating_base,
    functions = [rnea, crba, aba],
    scalar = f32
);

/// The bound the guide documents for f32 code on Go2+Z1, in the spec's
/// relative measure `max |ours - runtime| / max(1, max |runtime|)`.
const F32_BOUND: f64 = 1e-5;

fn to_f32<const N: usize>(x: &[f64]) -> [f32; N] {
    std::array::from_fn(|i| x[i] as f32)
}

fn widen(x: &[f32]) -> Vec<f64> {
    x.iter().map(|&x| f64::from(x)).collect()
}

#[test]
fn f32_code_is_within_the_documented_bound() {
    use go2_z1_f32::{NQ, NV};
    let model = Model::from_urdf_file(common::root().join("models/go2_z1.urdf"), true).unwrap();
    let mut data = Data::new(&model);
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    let mut worst = [0.0f64; 3];
    for _ in 0..200 {
        let q = random_q(&model, &mut rng);
        let v = random_vec(model.nv, 2.0, &mut rng);
        let a = random_vec(model.nv, 5.0, &mut rng);
        let tau = random_vec(model.nv, 20.0, &mut rng);
        // The runtime at the f32-rounded state: the error measured is the
        // code's, not the rounding of its inputs.
        let round = |x: &[f64]| -> Vec<f64> { x.iter().map(|&x| f64::from(x as f32)).collect() };
        let (q, v, a, tau) = (round(&q), round(&v), round(&a), round(&tau));
        let (q32, v32, a32, tau32): ([f32; NQ], [f32; NV], [f32; NV], [f32; NV]) =
            (to_f32(&q), to_f32(&v), to_f32(&a), to_f32(&tau));
        let errors = [
            relative_error(
                &widen(&go2_z1_f32::rnea(&q32, &v32, &a32)),
                rnea(&model, &mut data, &q, &v, &a).unwrap(),
            ),
            relative_error(
                &widen(go2_z1_f32::crba(&q32).as_flattened()),
                crba(&model, &mut data, &q).unwrap(),
            ),
            relative_error(
                &widen(&go2_z1_f32::aba(&q32, &v32, &tau32)),
                aba(&model, &mut data, &q, &v, &tau).unwrap(),
            ),
        ];
        for (w, e) in worst.iter_mut().zip(errors) {
            *w = w.max(e);
        }
    }
    println!(
        "f32 Go2+Z1, max relative error over 200 states: rnea {:.1e}, crba {:.1e}, aba {:.1e}",
        worst[0], worst[1], worst[2]
    );
    for (name, w) in ["rnea", "crba", "aba"].into_iter().zip(worst) {
        assert!(w <= F32_BOUND, "{name}: {w:e} > {F32_BOUND:e}");
        // f32 really is single precision: far from f64 agreement.
        assert!(w > 1e-12, "{name}: {w:e} is f64-like");
    }
}
