//! The linearization of one semi-implicit Euler step (`step_linearization`)
//! column by column against central differences of the whole `step` in f64,
//! the output mapped through `(difference(q⁺, q⁺(perturbed)).unwrap(), v⁺(perturbed) - v⁺)`,
//! on Go2+Z1 (floating base, nu = 18) for several step sizes.

mod common;

use common::{assert_close, random_q, random_vec};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{actuated_dofs, difference, integrate, step, step_linearization, Data, Model};

#[test]
fn actuation_skips_the_free_flyer() {
    let model = Model::from_urdf_file(common::root().join("models/go2_z1.urdf"), true).unwrap();
    let dofs = actuated_dofs(&model);
    assert_eq!(model.nv, 24);
    assert_eq!(dofs, (6..24).collect::<Vec<_>>());
    let fixed = Model::from_urdf_file(common::root().join("models/z1.urdf"), false).unwrap();
    assert_eq!(actuated_dofs(&fixed), (0..fixed.nv).collect::<Vec<_>>());
}

#[test]
fn go2_z1_matches_central_differences() {
    let model = Model::from_urdf_file(common::root().join("models/go2_z1.urdf"), true).unwrap();
    let (nv, nu) = (model.nv, actuated_dofs(&model).len());
    assert_eq!(nu, 18);
    let n2 = 2 * nv;
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    let mut ws = Data::<f64>::new(&model);
    let mut data = Data::<f64>::new(&model);
    for h in [1e-3, 1e-2, 5e-2] {
        let q = random_q(&model, &mut rng);
        let v = random_vec(nv, 1.0, &mut rng);
        let u = random_vec(nu, 5.0, &mut rng);
        let (q_next, v_next, a, b) = step_linearization(&model, &mut ws, &q, &v, &u, h).unwrap();
        assert_eq!((a.len(), b.len()), (n2 * n2, n2 * nu));
        let (q_want, v_want) = step(&model, &mut data, &q, &v, &u, h).unwrap();
        assert_close("q+", &q_next, &q_want, 1e-14);
        assert_close("v+", &v_next, &v_want, 1e-14);
        // The step from a perturbation (δq, δv, δu), as the error (δq⁺, δv⁺).
        let mut error = |dq: &[f64], dv: &[f64], du: &[f64]| -> Vec<f64> {
            let qp = integrate(&model, &q, dq).unwrap();
            let vp: Vec<f64> = v.iter().zip(dv).map(|(x, d)| x + d).collect();
            let up: Vec<f64> = u.iter().zip(du).map(|(x, d)| x + d).collect();
            let (q1, v1) = step(&model, &mut data, &qp, &vp, &up, h).unwrap();
            let dq1 = difference(&model, &q_next, &q1).unwrap();
            let dv1 = v1.iter().zip(&v_next).map(|(x, y)| x - y);
            dq1.into_iter().chain(dv1).collect()
        };
        let eps = 1e-6;
        let central = |p: Vec<f64>, m: Vec<f64>| -> Vec<f64> {
            p.iter()
                .zip(&m)
                .map(|(p, m)| (p - m) / (2.0 * eps))
                .collect()
        };
        let unit = |n: usize, k: usize, s: f64| -> Vec<f64> {
            let mut e = vec![0.0; n];
            if k < n {
                e[k] = s;
            }
            e
        };
        let (zv, zu) = (vec![0.0; nv], vec![0.0; nu]);
        for k in 0..n2 {
            let (p, m) = if k < nv {
                (
                    error(&unit(nv, k, eps), &zv, &zu),
                    error(&unit(nv, k, -eps), &zv, &zu),
                )
            } else {
                (
                    error(&zv, &unit(nv, k - nv, eps), &zu),
                    error(&zv, &unit(nv, k - nv, -eps), &zu),
                )
            };
            let col: Vec<f64> = (0..n2).map(|i| a[i * n2 + k]).collect();
            assert_close(&format!("h = {h}: A col {k}"), &col, &central(p, m), 1e-6);
        }
        for k in 0..nu {
            let p = error(&zv, &zv, &unit(nu, k, eps));
            let m = error(&zv, &zv, &unit(nu, k, -eps));
            let col: Vec<f64> = (0..n2).map(|i| b[i * nu + k]).collect();
            assert_close(&format!("h = {h}: B col {k}"), &col, &central(p, m), 1e-6);
        }
    }
}
