//! Analytic checks on the small URDFs of tests/urdf and on a closed-form double
//! pendulum: values worked out by hand, independent of the runtime's spatial algebra.

mod common;

use common::{assert_close, cholesky, load_model, mat_vec, random_q, random_vec};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{
    aba, crba, forward_kinematics, rnea, update_frame_placements, Data, FrameKind, Inertia,
    JointKind, Model,
};

type M3 = [[f64; 3]; 3];
type V3 = [f64; 3];

fn matmul(a: &M3, b: &M3) -> M3 {
    core::array::from_fn(|i| core::array::from_fn(|j| (0..3).map(|k| a[i][k] * b[k][j]).sum()))
}

fn transpose(a: &M3) -> M3 {
    core::array::from_fn(|i| core::array::from_fn(|j| a[j][i]))
}

fn apply(a: &M3, x: &V3) -> V3 {
    core::array::from_fn(|i| (0..3).map(|k| a[i][k] * x[k]).sum())
}

fn add3(a: &V3, b: &V3) -> V3 {
    core::array::from_fn(|i| a[i] + b[i])
}

/// The URDF `rpy` rotation `Rz(yaw) Ry(pitch) Rx(roll)`, built from the three
/// elementary rotations.
fn rpy(r: f64, p: f64, y: f64) -> M3 {
    let (sr, cr) = r.sin_cos();
    let (sp, cp) = p.sin_cos();
    let (sy, cy) = y.sin_cos();
    let rx = [[1.0, 0.0, 0.0], [0.0, cr, -sr], [0.0, sr, cr]];
    let ry = [[cp, 0.0, sp], [0.0, 1.0, 0.0], [-sp, 0.0, cp]];
    let rz = [[cy, -sy, 0.0], [sy, cy, 0.0], [0.0, 0.0, 1.0]];
    matmul(&rz, &matmul(&ry, &rx))
}

/// A rigid body as plain numbers: mass, first moment about the frame origin and
/// rotational inertia about the frame origin.
struct Body {
    mass: f64,
    first_moment: V3,
    rotational: M3,
}

impl Body {
    /// A URDF `<inertial>` moved to the frame `frame_from_link = (rotation, translation)`:
    /// the centre of mass is `c = R_f (c_l) + p_f` and the inertia about the
    /// origin is `R I_c Rᵀ + m (|c|² 1 - c cᵀ)` with `R = R_f R_inertial`.
    fn from_urdf(
        mass: f64,
        com: V3,
        com_rpy: V3,
        tensor: M3,
        frame_rotation: &M3,
        frame_translation: &V3,
    ) -> Body {
        let r = matmul(frame_rotation, &rpy(com_rpy[0], com_rpy[1], com_rpy[2]));
        let c = add3(&apply(frame_rotation, &com), frame_translation);
        let rotated = matmul(&r, &matmul(&tensor, &transpose(&r)));
        let c2: f64 = c.iter().map(|x| x * x).sum();
        let rotational = core::array::from_fn(|i| {
            core::array::from_fn(|j| {
                rotated[i][j] + mass * ((i == j) as u8 as f64 * c2 - c[i] * c[j])
            })
        });
        Body {
            mass,
            first_moment: c.map(|x| mass * x),
            rotational,
        }
    }

    fn plus(&self, other: &Body) -> Body {
        Body {
            mass: self.mass + other.mass,
            first_moment: add3(&self.first_moment, &other.first_moment),
            rotational: core::array::from_fn(|i| {
                core::array::from_fn(|j| self.rotational[i][j] + other.rotational[i][j])
            }),
        }
    }
}

const IDENTITY: M3 = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

fn tensor(ixx: f64, ixy: f64, ixz: f64, iyy: f64, iyz: f64, izz: f64) -> M3 {
    [[ixx, ixy, ixz], [ixy, iyy, iyz], [ixz, iyz, izz]]
}

fn assert_inertia(what: &str, ours: &Inertia<f64>, want: &Body, tol: f64) {
    assert_close(&format!("{what} mass"), &[ours.mass], &[want.mass], tol);
    assert_close(
        &format!("{what} first moment"),
        &ours.first_moment.0,
        &want.first_moment,
        tol,
    );
    assert_close(
        &format!("{what} rotational"),
        &ours.rotational.0.concat(),
        &want.rotational.concat(),
        tol,
    );
}

fn joint(model: &Model, name: &str) -> usize {
    model
        .joint_id(name)
        .unwrap_or_else(|| panic!("no joint `{name}`"))
}

// ---------------------------------------------------------------- rotated_inertia

#[test]
fn rotated_inertia_torque_and_mass_matrix_are_two() {
    let model = load_model("tests/urdf/rotated_inertia.urdf", false);
    assert_eq!((model.nq, model.nv), (1, 1));
    let mut data = Data::<f64>::new(&model);

    // diag(1, 2, 2.5) yawed by π/2 is diag(2, 1, 2.5) in the link frame.
    let j1 = joint(&model, "j1");
    assert_close(
        "j1 rotational",
        &model.joints[j1].inertia.rotational.0.concat(),
        &[2.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.5],
        1e-12,
    );

    let tau = rnea(&model, &mut data, &[0.0], &[0.0], &[1.0]).unwrap()[0];
    assert!(
        (tau - 2.0).abs() <= 1e-12,
        "rnea(0, 0, 1).unwrap() = {tau}, want 2"
    );
    let m = crba(&model, &mut data, &[0.0]).unwrap().to_vec();
    assert!(
        (m[0] - 2.0).abs() <= 1e-12,
        "crba(0).unwrap() = {m:?}, want [[2]]"
    );

    // The axis is the link's x axis, a principal axis through the centre of mass:
    // M stays 2 at any angle, and neither gravity nor speed makes a torque.
    for q in [0.7, -2.3, 3.0] {
        let m = crba(&model, &mut data, &[q]).unwrap()[0];
        assert!((m - 2.0).abs() <= 1e-12, "crba({q}).unwrap() = {m}, want 2");
        let tau = rnea(&model, &mut data, &[q], &[0.0], &[1.0]).unwrap()[0];
        assert!(
            (tau - 2.0).abs() <= 1e-12,
            "rnea({q}, 0, 1).unwrap() = {tau}, want 2"
        );
        let tau = rnea(&model, &mut data, &[q], &[3.0], &[-0.5]).unwrap()[0];
        assert!(
            (tau + 1.0).abs() <= 1e-12,
            "rnea({q}, 3, -0.5).unwrap() = {tau}, want -1"
        );
        let a = aba(&model, &mut data, &[q], &[3.0], &[1.0]).unwrap()[0];
        assert!(
            (a - 0.5).abs() <= 1e-12,
            "aba({q}, 3, 1).unwrap() = {a}, want 0.5"
        );
    }
}

// ---------------------------------------------------------------- fixed_weld

#[test]
fn fixed_weld_frames_match_massless_tool() {
    let heavy = load_model("tests/urdf/fixed_weld.urdf", false);
    let light = load_model("tests/urdf/fixed_weld_massless.urdf", false);
    assert_eq!((heavy.nq, light.nq), (2, 2));
    let names = |m: &Model| {
        m.body_frames()
            .map(|(_, f)| f.name.clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(names(&heavy), names(&light));
    assert_eq!(names(&heavy), ["base", "link1", "tool", "link2"]);

    let (mut dh, mut dl) = (Data::<f64>::new(&heavy), Data::<f64>::new(&light));
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..10 {
        let q = random_q(&heavy, &mut rng);
        forward_kinematics(&heavy, &mut dh, &q).unwrap();
        forward_kinematics(&light, &mut dl, &q).unwrap();
        update_frame_placements(&heavy, &mut dh).unwrap();
        update_frame_placements(&light, &mut dl).unwrap();
        for (id, frame) in heavy.body_frames() {
            let other = light.frame_id(&frame.name, FrameKind::Body).unwrap();
            assert_close(
                &format!("oMf[{}] at q = {q:?}", frame.name),
                &dh.o_mf[id].to_homogeneous().concat(),
                &dl.o_mf[other].to_homogeneous().concat(),
                1e-14,
            );
        }
    }

    // The tool frame, worked out by hand: world_from_tool = j1 placement · Rz(q1) · weld.
    let q1: f64 = 0.9;
    forward_kinematics(&heavy, &mut dh, &[q1, -0.4]).unwrap();
    update_frame_placements(&heavy, &mut dh).unwrap();
    let r = matmul(&rpy(0.0, 0.0, 0.2 + q1), &rpy(0.3, -0.2, 0.5));
    let p = add3(
        &apply(&rpy(0.0, 0.0, 0.2 + q1), &[0.2, 0.05, -0.03]),
        &[0.0, 0.0, 0.1],
    );
    let tool = dh.o_mf[heavy.frame_id("tool", FrameKind::Body).unwrap()];
    assert_close(
        "tool rotation",
        &tool.rotation.0.concat(),
        &r.concat(),
        1e-14,
    );
    assert_close("tool translation", &tool.translation.0, &p, 1e-14);
}

#[test]
fn fixed_weld_merges_tool_inertia_into_j1() {
    let heavy = load_model("tests/urdf/fixed_weld.urdf", false);
    let light = load_model("tests/urdf/fixed_weld_massless.urdf", false);
    // The j1 frame is link1's frame; tool sits at the weld origin in it.
    let link1 = Body::from_urdf(
        1.5,
        [0.1, 0.01, 0.02],
        [0.0, 0.0, 0.0],
        tensor(0.004, -0.0006, 0.0003, 0.005, 0.0004, 0.003),
        &IDENTITY,
        &[0.0, 0.0, 0.0],
    );
    let tool = Body::from_urdf(
        0.7,
        [0.02, -0.03, 0.04],
        [0.1, 0.2, -0.3],
        tensor(0.01, 0.001, -0.0005, 0.012, 0.0008, 0.015),
        &rpy(0.3, -0.2, 0.5),
        &[0.2, 0.05, -0.03],
    );
    assert_inertia(
        "fixed_weld j1",
        &heavy.joints[joint(&heavy, "j1")].inertia,
        &link1.plus(&tool),
        1e-14,
    );
    assert_inertia(
        "fixed_weld_massless j1",
        &light.joints[joint(&light, "j1")].inertia,
        &link1,
        1e-14,
    );

    // j2 carries link2 alone in both models.
    let link2 = Body::from_urdf(
        0.9,
        [0.03, 0.02, 0.12],
        [0.2, 0.1, 0.0],
        tensor(0.004, -0.0006, 0.0003, 0.005, 0.0004, 0.003),
        &IDENTITY,
        &[0.0, 0.0, 0.0],
    );
    for model in [&heavy, &light] {
        assert_inertia(
            &format!("{} j2", model.name),
            &model.joints[joint(model, "j2")].inertia,
            &link2,
            1e-14,
        );
    }
}

// ---------------------------------------------------------------- massless_link

#[test]
fn massless_link_has_zero_inertia_and_consistent_dynamics() {
    let model = load_model("tests/urdf/massless_link.urdf", false);
    let j1 = joint(&model, "j1");
    let zero = &model.joints[j1].inertia;
    assert_eq!(zero.mass, 0.0);
    assert_eq!(zero.first_moment.0, [0.0; 3]);
    assert_eq!(zero.rotational.0, [[0.0; 3]; 3]);

    let nv = model.nv;
    let mut data = Data::<f64>::new(&model);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for _ in 0..20 {
        let q = random_q(&model, &mut rng);
        let (v, a) = (random_vec(nv, 2.0, &mut rng), random_vec(nv, 2.0, &mut rng));
        let tau = rnea(&model, &mut data, &q, &v, &a).unwrap().to_vec();
        let nle = rnea(&model, &mut data, &q, &v, &vec![0.0; nv])
            .unwrap()
            .to_vec();
        let m = crba(&model, &mut data, &q).unwrap().to_vec();
        let ddq = aba(&model, &mut data, &q, &v, &tau).unwrap().to_vec();
        for x in tau.iter().chain(&nle).chain(&m).chain(&ddq) {
            assert!(x.is_finite(), "non-finite value at q = {q:?}");
        }
        cholesky(&m, nv).unwrap_or_else(|k| panic!("M not positive definite at pivot {k}: {m:?}"));
        let rebuilt: Vec<f64> = mat_vec(&m, &a)
            .iter()
            .zip(&nle)
            .map(|(x, y)| x + y)
            .collect();
        assert_close("M a + h", &rebuilt, &tau, 1e-12);
        assert_close("aba(rnea(a).unwrap()).unwrap()", &ddq, &a, 1e-10);
    }
}

// ---------------------------------------------------------------- defaults

#[test]
fn defaults_fill_missing_origin_and_axis() {
    let model = load_model("tests/urdf/defaults.urdf", false);
    let placement = &model.joints[joint(&model, "j_no_origin")].placement;
    assert_eq!(placement.rotation.0, IDENTITY, "j_no_origin rotation");
    assert_eq!(placement.translation.0, [0.0; 3], "j_no_origin translation");

    assert_eq!(
        model.joints[joint(&model, "j_no_axis")].kind,
        JointKind::Revolute {
            axis: [1.0, 0.0, 0.0]
        }
    );

    let axis_of = |name: &str| match model.joints[joint(&model, name)].kind {
        JointKind::Revolute { axis } | JointKind::Prismatic { axis } => axis,
        ref other => panic!("{name}: unexpected kind {other:?}"),
    };
    let s14 = 14f64.sqrt();
    for (name, want) in [
        ("p_unaligned", [0.48, 0.6, 0.64]),
        ("r_unaligned", [1.0 / s14, 2.0 / s14, 3.0 / s14]),
    ] {
        let axis = axis_of(name);
        let norm = axis.iter().map(|x| x * x).sum::<f64>().sqrt();
        assert!((norm - 1.0).abs() <= 1e-15, "{name}: |axis| = {norm}");
        assert_close(&format!("{name} axis"), &axis, &want, 1e-15);
    }
    assert!(matches!(
        model.joints[joint(&model, "p_unaligned")].kind,
        JointKind::Prismatic { .. }
    ));
    assert!(matches!(
        model.joints[joint(&model, "r_unaligned")].kind,
        JointKind::Revolute { .. }
    ));
}

// ---------------------------------------------------------------- double pendulum

/// A planar double pendulum of two uniform rods hanging along -z, both joints
/// about y: rod i has mass `m_i`, length `l_i`, centre of mass at `l_i / 2` and
/// `I_yy = m_i l_i² / 12` about it.
struct Pendulum {
    m: [f64; 2],
    l: [f64; 2],
}

impl Pendulum {
    fn urdf(&self) -> String {
        let link = |name: &str, m: f64, l: f64| {
            let i = m * l * l / 12.0;
            format!(
                r#"<link name="{name}"><inertial><origin xyz="0 0 {}"/><mass value="{m}"/>
                   <inertia ixx="{i}" ixy="0" ixz="0" iyy="{i}" iyz="0" izz="0.001"/></inertial></link>"#,
                -l / 2.0
            )
        };
        format!(
            r#"<?xml version="1.0"?>
            <robot name="double_pendulum">
              <link name="base"/>
              {}
              {}
              <joint name="shoulder" type="revolute">
                <parent link="base"/><child link="upper"/><axis xyz="0 1 0"/>
                <limit lower="-10" upper="10" effort="100" velocity="10"/>
              </joint>
              <joint name="elbow" type="revolute">
                <origin xyz="0 0 {}"/>
                <parent link="upper"/><child link="lower"/><axis xyz="0 1 0"/>
                <limit lower="-10" upper="10" effort="100" velocity="10"/>
              </joint>
            </robot>"#,
            link("upper", self.m[0], self.l[0]),
            link("lower", self.m[1], self.l[1]),
            -self.l[0]
        )
    }

    /// The textbook equations of motion (Spong, Hutchinson & Vidyasagar, §7.4)
    /// with angles from the downward vertical: `τ = M(q) a + C(q, v) v + g(q)`.
    /// Returns `(M, τ)`.
    fn closed_form(&self, q: [f64; 2], v: [f64; 2], a: [f64; 2]) -> ([[f64; 2]; 2], [f64; 2]) {
        let g = 9.81;
        let [m1, m2] = self.m;
        let [l1, l2] = self.l;
        let (lc1, lc2) = (l1 / 2.0, l2 / 2.0);
        let (i1, i2) = (m1 * l1 * l1 / 12.0, m2 * l2 * l2 / 12.0);
        let c2 = q[1].cos();
        let h = -m2 * l1 * lc2 * q[1].sin();
        let m11 = m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2.0 * l1 * lc2 * c2) + i1 + i2;
        let m12 = m2 * (lc2 * lc2 + l1 * lc2 * c2) + i2;
        let m22 = m2 * lc2 * lc2 + i2;
        let g1 = g * ((m1 * lc1 + m2 * l1) * q[0].sin() + m2 * lc2 * (q[0] + q[1]).sin());
        let g2 = g * m2 * lc2 * (q[0] + q[1]).sin();
        let tau = [
            m11 * a[0] + m12 * a[1] + h * (2.0 * v[0] * v[1] + v[1] * v[1]) + g1,
            m12 * a[0] + m22 * a[1] - h * v[0] * v[0] + g2,
        ];
        ([[m11, m12], [m12, m22]], tau)
    }
}

#[test]
fn double_pendulum_matches_closed_form() {
    let pendulum = Pendulum {
        m: [1.3, 0.8],
        l: [0.7, 0.5],
    };
    let model = Model::from_urdf_str(&pendulum.urdf(), false).unwrap();
    assert_eq!((model.nq, model.nv), (2, 2));
    let mut data = Data::<f64>::new(&model);
    let mut states = vec![
        ([0.0, 0.0], [0.0, 0.0], [0.0, 0.0]),
        ([0.5, 0.0], [0.0, 0.0], [0.0, 0.0]),
        ([0.0, 0.0], [1.0, 0.0], [1.0, 0.0]),
        ([0.3, -1.1], [2.0, -0.7], [0.4, 1.5]),
        ([std::f64::consts::FRAC_PI_2, 0.8], [-1.5, 3.0], [-2.0, 0.1]),
    ];
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    for _ in 0..20 {
        let r = random_vec(6, 3.0, &mut rng);
        states.push(([r[0], r[1]], [r[2], r[3]], [r[4], r[5]]));
    }
    for (q, v, a) in states {
        let (m, tau) = pendulum.closed_form(q, v, a);
        let ours = rnea(&model, &mut data, &q, &v, &a).unwrap().to_vec();
        assert_close(
            &format!("rnea at q {q:?} v {v:?} a {a:?}"),
            &ours,
            &tau,
            1e-12,
        );
        assert_close(
            &format!("crba at q {q:?}"),
            crba(&model, &mut data, &q).unwrap(),
            &m.concat(),
            1e-12,
        );
    }
}
