//! Identities between the algorithms on real robots at seeded random states:
//! the columns of M from RNEA, M symmetric positive definite, ABA the inverse of
//! RNEA, and `½ vᵀ M v` equal to the sum of the bodies' kinetic energies.

mod common;

use common::{assert_close, cholesky, load_model, mat_vec, random_q, random_vec};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{aba, crba, rnea, Data, Inertia, Model};

/// Relative tolerance of every identity here.
const TOL: f64 = 1e-9;
/// Random states per robot.
const STATES: usize = 8;

/// M column by column from RNEA: `M e_k = rnea(q, 0, e_k).unwrap() - rnea(q, 0, 0).unwrap()`, row-major.
fn mass_matrix_from_rnea(model: &Model, data: &mut Data<f64>, q: &[f64]) -> Vec<f64> {
    let nv = model.nv;
    let zero = vec![0.0; nv];
    let gravity = rnea(model, data, q, &zero, &zero).unwrap().to_vec();
    let mut m = vec![0.0; nv * nv];
    for k in 0..nv {
        let mut e = zero.clone();
        e[k] = 1.0;
        let tau = rnea(model, data, q, &zero, &e).unwrap();
        for r in 0..nv {
            m[r * nv + k] = tau[r] - gravity[r];
        }
    }
    m
}

fn check(name: &str, urdf: &str, floating_base: bool, seed: u64) {
    let model = load_model(urdf, floating_base);
    let nv = model.nv;
    let mut data = Data::<f64>::new(&model);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for s in 0..STATES {
        let tag = |what: &str| format!("{name} state {s}: {what}");
        let q = random_q(&model, &mut rng);
        if floating_base {
            let norm = q[3..7].iter().map(|x| x * x).sum::<f64>().sqrt();
            assert!((norm - 1.0).abs() < 1e-14, "quaternion norm {norm}");
        }
        let v = random_vec(nv, 2.0, &mut rng);
        let a = random_vec(nv, 2.0, &mut rng);
        let tau = random_vec(nv, 20.0, &mut rng);

        // M from CRBA against M from RNEA, and both symmetric.
        let m = crba(&model, &mut data, &q).unwrap().to_vec();
        let m_rnea = mass_matrix_from_rnea(&model, &mut data, &q);
        assert_close(&tag("crba vs columns of rnea"), &m, &m_rnea, TOL);
        let transpose =
            |x: &[f64]| -> Vec<f64> { (0..nv * nv).map(|i| x[(i % nv) * nv + i / nv]).collect() };
        assert_close(
            &tag("M from rnea symmetric"),
            &m_rnea,
            &transpose(&m_rnea),
            TOL,
        );
        assert_close(&tag("M from crba symmetric"), &m, &transpose(&m), TOL);
        cholesky(&m, nv)
            .unwrap_or_else(|k| panic!("{}", tag(&format!("Cholesky of M fails at pivot {k}"))));

        // ABA inverts RNEA, both ways.
        let ddq = aba(&model, &mut data, &q, &v, &tau).unwrap().to_vec();
        assert_close(
            &tag("rnea(q, v, aba(q, v, tau).unwrap()).unwrap()"),
            rnea(&model, &mut data, &q, &v, &ddq).unwrap(),
            &tau,
            TOL,
        );
        let tau_a = rnea(&model, &mut data, &q, &v, &a).unwrap().to_vec();
        assert_close(
            &tag("aba(q, v, rnea(q, v, a).unwrap()).unwrap()"),
            aba(&model, &mut data, &q, &v, &tau_a).unwrap(),
            &a,
            TOL,
        );

        // Kinetic energy: ½ vᵀ M v against Σ ½ vᵢᵀ Iᵢ vᵢ from the body velocities of RNEA.
        let from_m = 0.5
            * v.iter()
                .zip(mat_vec(&m, &v))
                .map(|(x, y)| x * y)
                .sum::<f64>();
        rnea(&model, &mut data, &q, &v, &a).unwrap();
        let from_bodies: f64 = (1..model.njoints())
            .map(|i| Inertia::constant(&model.joints[i].inertia).kinetic_energy(&data.v[i]))
            .sum();
        assert!(from_m > 0.0, "{}", tag("zero kinetic energy"));
        assert_close(&tag("kinetic energy"), &[from_m], &[from_bodies], TOL);
    }
}

#[test]
fn go2_z1_floating() {
    check("go2_z1 floating", "models/go2_z1.urdf", true, 1);
}

#[test]
fn z1_fixed() {
    check("z1 fixed", "models/z1.urdf", false, 2);
}

#[test]
fn panda_fixed() {
    check("panda fixed", "models/panda.urdf", false, 3);
}
