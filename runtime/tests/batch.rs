//! `batch::batch` and `batch::batch_par` (feature `rayon`) give each state
//! the numbers of a call on its own, bit for bit, for every length (0 and
//! odd ones included); a length mismatch is an error and calls nothing.

mod common;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::batch::batch;
use rbdgen_runtime::InputError;
use rbdgen_runtime::{aba, aba_derivatives, Data, Model};

type State = (Vec<f64>, Vec<f64>, Vec<f64>);

fn states(model: &Model, n: usize, rng: &mut ChaCha8Rng) -> Vec<State> {
    (0..n)
        .map(|_| {
            (
                common::random_q(model, rng),
                common::random_vec(model.nv, 1.0, rng),
                common::random_vec(model.nv, 1.0, rng),
            )
        })
        .collect()
}

/// ABA of each state, each with a fresh workspace.
fn one_by_one(model: &Model, states: &[State]) -> Vec<Vec<f64>> {
    states
        .iter()
        .map(|(q, v, tau)| {
            aba(model, &mut Data::new(model), q, v, tau)
                .unwrap()
                .to_vec()
        })
        .collect()
}

#[test]
fn batch_equals_calls_one_by_one() {
    let model = common::load_model("models/go2_z1.urdf", true);
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let mut data = Data::new(&model);
    for n in [0, 1, 7, 64] {
        let states = states(&model, n, &mut rng);
        let mut out = vec![vec![f64::NAN; model.nv]; n];
        batch(
            &model,
            &mut data,
            &states,
            &mut out,
            |m, d, (q, v, tau), o| {
                o.copy_from_slice(aba(m, d, q, v, tau)?);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(out, one_by_one(&model, &states), "{n} states");
    }
    // Tuples of matrices too: the ABA derivatives.
    let states = states(&model, 3, &mut rng);
    let mut out = vec![Vec::new(); 3];
    batch(
        &model,
        &mut data,
        &states,
        &mut out,
        |m, d, (q, v, tau), o| {
            let r = aba_derivatives(m, d, q, v, tau)?;
            *o = [r.d_dq, r.d_dv, r.d_du].concat();
            Ok(())
        },
    )
    .unwrap();
    for (k, (q, v, tau)) in states.iter().enumerate() {
        let r = aba_derivatives(&model, &mut Data::new(&model), q, v, tau).unwrap();
        assert_eq!(out[k], [r.d_dq, r.d_dv, r.d_du].concat(), "state {k}");
    }
}

#[test]
fn batch_length_mismatch_is_an_error() {
    let model = common::load_model("models/z1.urdf", false);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let states = states(&model, 4, &mut rng);
    let mut out = vec![vec![7.0; model.nv]; 3];
    let err = batch(
        &model,
        &mut Data::<f64>::new(&model),
        &states,
        &mut out,
        |_, _, _, _| panic!("called despite the mismatch"),
    )
    .unwrap_err();
    assert_eq!(
        err,
        InputError::Length {
            argument: "out",
            len: 3,
            expected: 4
        }
    );
    assert_eq!(err.to_string(), "`out` has length 3, expected 4");
}

#[cfg(feature = "rayon")]
#[test]
fn batch_par_equals_batch() {
    use rbdgen_runtime::batch::batch_par;
    let model = common::load_model("models/go2_z1.urdf", true);
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    for n in [0, 1, 5, 67] {
        let states = states(&model, n, &mut rng);
        let mut out = vec![vec![f64::NAN; model.nv]; n];
        batch_par(
            &model,
            &states,
            &mut out,
            |m, d: &mut Data<f64>, (q, v, tau), o| {
                o.copy_from_slice(aba(m, d, q, v, tau)?);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(out, one_by_one(&model, &states), "{n} states");
    }
    let states = states(&model, 2, &mut rng);
    let mut out: Vec<Vec<f64>> = vec![Vec::new(); 1];
    let err = batch_par(&model, &states, &mut out, |_, _: &mut Data<f64>, _, _| {
        panic!("called despite the mismatch")
    })
    .unwrap_err();
    assert_eq!(
        err,
        InputError::Length {
            argument: "out",
            len: 1,
            expected: 2
        }
    );
}
