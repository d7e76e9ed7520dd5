//! `NAME_jacobian` (automatic differentiation of the traced graph) generated
//! by `robot_dynamics!`, against the analytical derivatives of the runtime
//! (`rnea_derivatives`, `jacobian_center_of_mass`, the frame Jacobian, `M v`)
//! and against central differences of the runtime in the tangent space; and
//! `simplify` in the macro against the runtime.

#[path = "../runtime/tests/common/mod.rs"]
mod common;

use common::{assert_close, load_model, mat_vec, random_q, random_vec};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen::runtime::{
    center_of_pressure, compute_joint_jacobians, crba, frame_jacobian, integrate,
    jacobian_center_of_mass, rnea, rnea_derivatives, Data, Model, ReferenceFrame,
};

rbdgen::robot_dynamics!(
    mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    functions = [center_of_mass],
    jacobians = [rnea, center_of_mass, kinetic_energy, frame_placement, center_of_pressure],
    contacts = [FL_foot: point, FR_foot: point, RL_foot: point, RR_foot: point],
    frames = [gripperMover]
);

rbdgen::robot_dynamics!(mod z1, "models/z1.urdf", functions = [rnea, crba], simplify);

fn model() -> Model {
    let mut model = load_model("models/go2_z1.urdf", true);
    let feet = ["FL_foot", "FR_foot", "RL_foot", "RR_foot"];
    let contacts: Vec<_> = feet
        .iter()
        .map(|f| (*f, rbdgen::runtime::ContactKind::Point))
        .collect();
    model.set_contacts(&contacts).unwrap();
    model
}

#[test]
fn rnea_jacobian_equals_rnea_derivatives() {
    let model = model();
    let mut data = Data::<f64>::new(&model);
    let mut rng = ChaCha8Rng::seed_from_u64(31);
    for _ in 0..5 {
        let q = random_q(&model, &mut rng);
        let v = random_vec(model.nv, 1.0, &mut rng);
        let a = random_vec(model.nv, 3.0, &mut rng);
        let (dq, dv, da) = go2_z1::rnea_jacobian(
            q.as_slice().try_into().unwrap(),
            v.as_slice().try_into().unwrap(),
            a.as_slice().try_into().unwrap(),
        );
        let want = rnea_derivatives(&model, &mut data, &q, &v, &a).unwrap();
        assert_close("dtau_dq", dq.as_flattened(), &want.d_dq, 1e-12);
        assert_close("dtau_dv", dv.as_flattened(), &want.d_dv, 1e-12);
        assert_close("dtau_da", da.as_flattened(), &want.d_du, 1e-12);
    }
}

#[test]
fn kinematic_jacobians_equal_the_analytical_ones() {
    let model = model();
    let mut data = Data::<f64>::new(&model);
    let mut rng = ChaCha8Rng::seed_from_u64(32);
    let frame = model.link_frame("gripperMover").unwrap();
    for _ in 0..5 {
        let q = random_q(&model, &mut rng);
        let qa: &[f64; go2_z1::NQ] = q.as_slice().try_into().unwrap();
        let jcom = go2_z1::center_of_mass_jacobian(qa);
        let want = jacobian_center_of_mass(&model, &mut data, &q).unwrap();
        assert_close("center_of_mass_jacobian", jcom.as_flattened(), want, 1e-12);
        // The placement's rows 3, 7 and 11 (row-major 4 x 4) are its translation.
        let jp = go2_z1::frame_placement_jacobian(qa, go2_z1::Frame::GripperMover);
        compute_joint_jacobians(&model, &mut data, &q).unwrap();
        let j = frame_jacobian(&model, &data, frame, ReferenceFrame::LocalWorldAligned).unwrap();
        let translation: Vec<f64> = [3, 7, 11].iter().flat_map(|&r| jp[r]).collect();
        assert_close("translation", &translation, &j[..3 * model.nv], 1e-12);
    }
}

#[test]
fn kinetic_energy_gradient_is_m_v_and_central_differences_in_q() {
    let model = model();
    let mut data = Data::<f64>::new(&model);
    let mut rng = ChaCha8Rng::seed_from_u64(33);
    let q = random_q(&model, &mut rng);
    let v = random_vec(model.nv, 1.0, &mut rng);
    let (dq, dv) = go2_z1::kinetic_energy_jacobian(
        q.as_slice().try_into().unwrap(),
        v.as_slice().try_into().unwrap(),
    );
    let m = crba(&model, &mut data, &q).unwrap();
    assert_close("dT/dv", &dv, &mat_vec(m, &v), 1e-12);
    // dT/dq: ½ vᵀ M(q ⊕ δ) v by central differences.
    let h = 1e-6;
    let energy = |d: &[f64], data: &mut Data<f64>| {
        let qd = integrate(&model, &q, d).unwrap();
        let m = crba(&model, data, &qd).unwrap();
        0.5 * v
            .iter()
            .zip(mat_vec(m, &v))
            .map(|(a, b)| a * b)
            .sum::<f64>()
    };
    let fd: Vec<f64> = (0..model.nv)
        .map(|k| {
            let mut d = vec![0.0; model.nv];
            d[k] = h;
            let p = energy(&d, &mut data);
            d[k] = -h;
            (p - energy(&d, &mut data)) / (2.0 * h)
        })
        .collect();
    assert_close("dT/dq", &dq, &fd, 1e-6);
}

#[test]
fn center_of_pressure_jacobian_matches_central_differences() {
    let model = model();
    let mut data = Data::<f64>::new(&model);
    let mut rng = ChaCha8Rng::seed_from_u64(34);
    let q = random_q(&model, &mut rng);
    // Contact forces with a positive vertical sum, as in a stance.
    let lambda: Vec<f64> = random_vec(12, 10.0, &mut rng)
        .iter()
        .enumerate()
        .map(|(i, l)| l + if i % 3 == 2 { 50.0 } else { 0.0 })
        .collect();
    let height = 0.02;
    let (dq, dlambda, dheight) = go2_z1::center_of_pressure_jacobian(
        q.as_slice().try_into().unwrap(),
        lambda.as_slice().try_into().unwrap(),
        height,
    );
    let cop = |q: &[f64], lambda: &[f64], height: f64, data: &mut Data<f64>| {
        center_of_pressure(&model, data, q, &model.contacts, lambda, height).unwrap()
    };
    let h = 1e-6;
    for k in 0..model.nv {
        let mut d = vec![0.0; model.nv];
        d[k] = h;
        let p = cop(
            &integrate(&model, &q, &d).unwrap(),
            &lambda,
            height,
            &mut data,
        );
        d[k] = -h;
        let m = cop(
            &integrate(&model, &q, &d).unwrap(),
            &lambda,
            height,
            &mut data,
        );
        for r in 0..2 {
            let fd = (p[r] - m[r]) / (2.0 * h);
            assert!(
                (dq[r][k] - fd).abs() < 1e-6,
                "dq[{r}][{k}]: {} vs {fd}",
                dq[r][k]
            );
        }
    }
    for k in 0..lambda.len() {
        let mut l = lambda.clone();
        l[k] += h;
        let p = cop(&q, &l, height, &mut data);
        l[k] -= 2.0 * h;
        let m = cop(&q, &l, height, &mut data);
        for r in 0..2 {
            let fd = (p[r] - m[r]) / (2.0 * h);
            assert!((dlambda[r][k] - fd).abs() < 1e-6, "dlambda[{r}][{k}]");
        }
    }
    let p = cop(&q, &lambda, height + h, &mut data);
    let m = cop(&q, &lambda, height - h, &mut data);
    for r in 0..2 {
        let fd = (p[r] - m[r]) / (2.0 * h);
        assert!((dheight[r] - fd).abs() < 1e-6, "dheight[{r}]");
    }
}

#[test]
fn simplified_functions_match_the_runtime() {
    let model = load_model("models/z1.urdf", false);
    let mut data = Data::<f64>::new(&model);
    let mut rng = ChaCha8Rng::seed_from_u64(35);
    for _ in 0..5 {
        let q = random_q(&model, &mut rng);
        let v = random_vec(model.nv, 1.0, &mut rng);
        let a = random_vec(model.nv, 3.0, &mut rng);
        let qa: &[f64; z1::NQ] = q.as_slice().try_into().unwrap();
        let tau = z1::rnea(
            qa,
            v.as_slice().try_into().unwrap(),
            a.as_slice().try_into().unwrap(),
        );
        assert_close(
            "rnea",
            &tau,
            rnea(&model, &mut data, &q, &v, &a).unwrap(),
            1e-12,
        );
        let m = z1::crba(qa);
        assert_close(
            "crba",
            m.as_flattened(),
            crba(&model, &mut data, &q).unwrap(),
            1e-12,
        );
    }
}

rbdgen::robot_dynamics!(
    mod z1_lanes,
    "models/z1.urdf",
    lanes = 4,
    functions = [kinetic_energy],
    jacobians = [kinetic_energy]
);

#[test]
fn jacobians_in_lanes_equal_the_scalar_ones() {
    use z1_lanes::{NQ, NV};
    let model = load_model("models/z1.urdf", false);
    let mut rng = ChaCha8Rng::seed_from_u64(36);
    let n = 9;
    let q: Vec<[f64; NQ]> = (0..n)
        .map(|_| random_q(&model, &mut rng).try_into().unwrap())
        .collect();
    let v: Vec<[f64; NV]> = (0..n)
        .map(|_| random_vec(NV, 1.0, &mut rng).try_into().unwrap())
        .collect();
    let mut out = vec![([0.0; NV], [0.0; NV]); n];
    z1_lanes::lanes::kinetic_energy_jacobian_batch(&q, &v, &mut out).unwrap();
    for k in 0..n {
        let (dq, dv) = z1_lanes::kinetic_energy_jacobian(&q[k], &v[k]);
        assert_close("dT/dq", &out[k].0, &dq, 1e-14);
        assert_close("dT/dv", &out[k].1, &dv, 1e-14);
    }
}
