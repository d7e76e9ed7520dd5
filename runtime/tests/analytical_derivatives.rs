//! The analytical frame, contact, impulse and centroidal derivatives against
//! their dual-number oracles (`dual_oracle`: forward-mode dual numbers
//! through the functions themselves) on the kinds of tree the passes must
//! handle: a floating base with point feet and a 6-D contact (Go2+Z1), a
//! humanoid on two 6-D soles (G1), a fixed-base arm (Z1), two trees hanging
//! from the universe, and mimic joints (a floating chain with gains ≠ 1 and a
//! mimic in another branch).

mod common;

use common::{assert_close, load_model, random_q, random_vec, root};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen_runtime::{
    centroidal_dynamics_derivatives, contact_drift_derivatives, contact_dynamics,
    contact_dynamics_derivatives, contact_inverse_dynamics_derivatives, dual_oracle,
    frame_acceleration_derivatives, frame_velocity_derivatives, impulse_dynamics_derivatives,
    ContactKind, Data, Model, ReferenceFrame,
};

/// Both sides are exact derivatives: only rounding separates them.
const TOL: f64 = 1e-9;

/// Two arms hanging from the universe (two trees, each root a revolute joint
/// with gravity turning in its axes), four dofs each, with a point at each
/// tip.
const TWO_TREES: &str = r#"<robot name="two_trees">
  <link name="world"/>
  <link name="a1"><inertial><origin xyz="0.1 0 0.2"/><mass value="1.2"/><inertia ixx="0.02" ixy="0.001" ixz="0" iyy="0.03" iyz="0" izz="0.01"/></inertial></link>
  <link name="a2"><inertial><origin xyz="0 0.05 0.15"/><mass value="0.8"/><inertia ixx="0.01" ixy="0" ixz="0.002" iyy="0.01" iyz="0" izz="0.005"/></inertial></link>
  <link name="b1"><inertial><origin xyz="-0.1 0.1 0.1"/><mass value="1.0"/><inertia ixx="0.02" ixy="0" ixz="0" iyy="0.02" iyz="0.001" izz="0.01"/></inertial></link>
  <link name="b2"><inertial><origin xyz="0.02 0 0.2"/><mass value="0.6"/><inertia ixx="0.008" ixy="0" ixz="0" iyy="0.009" iyz="0" izz="0.004"/></inertial></link>
  <joint name="ja1" type="revolute"><parent link="world"/><child link="a1"/><origin xyz="0 0.3 0.5" rpy="0.2 0 0"/><axis xyz="0 1 0"/><limit effort="1" velocity="1" lower="-3" upper="3"/></joint>
  <joint name="ja2" type="revolute"><parent link="a1"/><child link="a2"/><origin xyz="0.1 0 0.4"/><axis xyz="1 0 0"/><limit effort="1" velocity="1" lower="-3" upper="3"/></joint>
  <joint name="jb1" type="revolute"><parent link="world"/><child link="b1"/><origin xyz="0 -0.3 0.5" rpy="0 0.3 0.1"/><axis xyz="0 0 1"/><limit effort="1" velocity="1" lower="-3" upper="3"/></joint>
  <joint name="jb2" type="prismatic"><parent link="b1"/><child link="b2"/><origin xyz="0 0 0.3"/><axis xyz="0.6 0 0.8"/><limit effort="1" velocity="1" lower="-3" upper="3"/></joint>
  <link name="a3"><inertial><origin xyz="0.05 0 0.1"/><mass value="0.5"/><inertia ixx="0.004" ixy="0" ixz="0" iyy="0.005" iyz="0.0005" izz="0.003"/></inertial></link>
  <link name="b3"><inertial><origin xyz="0 0.03 0.1"/><mass value="0.4"/><inertia ixx="0.003" ixy="0.0002" ixz="0" iyy="0.003" iyz="0" izz="0.002"/></inertial></link>
  <joint name="ja3" type="revolute"><parent link="a2"/><child link="a3"/><origin xyz="0 0.1 0.3" rpy="0 0.2 0"/><axis xyz="0 0 1"/><limit effort="1" velocity="1" lower="-3" upper="3"/></joint>
  <joint name="jb3" type="revolute"><parent link="b2"/><child link="b3"/><origin xyz="0.1 0 0.2"/><axis xyz="0 1 0"/><limit effort="1" velocity="1" lower="-3" upper="3"/></joint>
  <link name="a4"><inertial><origin xyz="0 0 0.08"/><mass value="0.3"/><inertia ixx="0.002" ixy="0" ixz="0.0001" iyy="0.002" iyz="0" izz="0.001"/></inertial></link>
  <link name="b4"><inertial><origin xyz="0.02 0 0.06"/><mass value="0.3"/><inertia ixx="0.002" ixy="0" ixz="0" iyy="0.0025" iyz="0" izz="0.001"/></inertial></link>
  <joint name="ja4" type="revolute"><parent link="a3"/><child link="a4"/><origin xyz="0.1 0 0.2" rpy="0.3 0 0"/><axis xyz="1 0 0"/><limit effort="1" velocity="1" lower="-3" upper="3"/></joint>
  <joint name="jb4" type="revolute"><parent link="b3"/><child link="b4"/><origin xyz="0 0.1 0.15"/><axis xyz="0 0.6 0.8"/><limit effort="1" velocity="1" lower="-3" upper="3"/></joint>
</robot>"#;

fn with_contacts(mut model: Model, set: &[(&str, ContactKind)]) -> Model {
    model.set_contacts(set).unwrap();
    model
}

fn models() -> Vec<(&'static str, Model)> {
    use ContactKind::{Frame6d, Point};
    let chain = Model::from_urdf_file_mimic(root().join("tests/urdf/mimic/chain.urdf"), true)
        .expect("chain.urdf");
    vec![
        (
            "go2_z1 feet + gripper",
            with_contacts(
                load_model("models/go2_z1.urdf", true),
                &[
                    ("FL_foot", Point),
                    ("FR_foot", Point),
                    ("RL_foot", Point),
                    ("RR_foot", Point),
                    ("gripper_link", Frame6d),
                ],
            ),
        ),
        (
            "g1 soles",
            with_contacts(
                load_model("models/g1_29dof.urdf", true),
                &[
                    ("left_ankle_roll_link", Frame6d),
                    ("right_ankle_roll_link", Frame6d),
                ],
            ),
        ),
        (
            "z1 gripper",
            with_contacts(
                load_model("models/z1.urdf", false),
                &[("gripperMover", Frame6d)],
            ),
        ),
        (
            "two trees",
            with_contacts(
                Model::from_urdf_str(TWO_TREES, false).unwrap(),
                &[("a4", Point), ("b4", Point)],
            ),
        ),
        (
            "mimic chain",
            with_contacts(chain, &[("tip", Point), ("l5", Point)]),
        ),
    ]
}

struct State {
    q: Vec<f64>,
    v: Vec<f64>,
    a: Vec<f64>,
    tau: Vec<f64>,
    lambda: Vec<f64>,
}

fn states(model: &Model) -> Vec<State> {
    let mut rng = ChaCha8Rng::seed_from_u64(51);
    (0..2)
        .map(|_| State {
            q: random_q(model, &mut rng),
            v: random_vec(model.nv, 1.0, &mut rng),
            a: random_vec(model.nv, 1.0, &mut rng),
            tau: random_vec(model.nv, 5.0, &mut rng),
            lambda: random_vec(model.nc(), 20.0, &mut rng),
        })
        .collect()
}

fn check_all(what: &str, ours: &[&[f64]], oracle: &[&[f64]]) {
    for (k, (o, r)) in ours.iter().zip(oracle).enumerate() {
        assert_close(&format!("{what} block {k}"), o, r, TOL);
    }
}

#[test]
fn frame_derivatives_equal_their_dual_oracle() {
    for (name, model) in models() {
        let mut data = Data::new(&model);
        for (k, s) in states(&model).iter().enumerate() {
            for frame in model.contacts.iter().map(|c| c.frame) {
                for reference in [
                    ReferenceFrame::Local,
                    ReferenceFrame::LocalWorldAligned,
                    ReferenceFrame::World,
                ] {
                    let tag = format!("{name} state {k} frame {frame} {reference:?}");
                    let (a, b) =
                        frame_velocity_derivatives(&model, &mut data, &s.q, &s.v, frame, reference)
                            .unwrap();
                    let (c, d) = dual_oracle::frame_velocity_derivatives(
                        &model, &mut data, &s.q, &s.v, frame, reference,
                    )
                    .unwrap();
                    check_all(&format!("{tag} velocity"), &[&a, &b], &[&c, &d]);
                    let (a, b, c) = frame_acceleration_derivatives(
                        &model, &mut data, &s.q, &s.v, &s.a, frame, reference,
                    )
                    .unwrap();
                    let (d, e, f) = dual_oracle::frame_acceleration_derivatives(
                        &model, &mut data, &s.q, &s.v, &s.a, frame, reference,
                    )
                    .unwrap();
                    check_all(&format!("{tag} acceleration"), &[&a, &b, &c], &[&d, &e, &f]);
                }
            }
        }
    }
}

#[test]
fn contact_derivatives_equal_their_dual_oracle() {
    for (name, model) in models() {
        let mut data = Data::new(&model);
        let contacts = model.contacts.clone();
        for (k, s) in states(&model).iter().enumerate() {
            let tag = |w: &str| format!("{name} state {k} {w}");
            let (a, b) =
                contact_drift_derivatives(&model, &mut data, &s.q, &s.v, &contacts).unwrap();
            let (c, d) =
                dual_oracle::contact_drift_derivatives(&model, &mut data, &s.q, &s.v, &contacts)
                    .unwrap();
            check_all(&tag("drift"), &[&a, &b], &[&c, &d]);

            let ours = contact_inverse_dynamics_derivatives(
                &model, &mut data, &s.q, &s.v, &s.a, &s.lambda, &contacts,
            )
            .unwrap();
            let oracle = dual_oracle::contact_inverse_dynamics_derivatives(
                &model, &mut data, &s.q, &s.v, &s.a, &s.lambda, &contacts,
            )
            .unwrap();
            check_all(
                &tag("inverse dynamics"),
                &[&ours.0, &ours.1, &ours.2, &ours.3],
                &[&oracle.0, &oracle.1, &oracle.2, &oracle.3],
            );

            // Both sides differentiate the same damped solution.
            let mu = 1e-6;
            let ours =
                contact_dynamics_derivatives(&model, &mut data, &s.q, &s.v, &s.tau, &contacts, mu)
                    .unwrap();
            let oracle = dual_oracle::contact_dynamics_derivatives(
                &model, &mut data, &s.q, &s.v, &s.tau, &contacts, mu,
            )
            .unwrap();
            let (ddq, _) =
                contact_dynamics(&model, &mut data, &s.q, &s.v, &s.tau, &contacts, mu).unwrap();
            assert!(ddq.iter().all(|x| x.is_finite()), "{}", tag("finite"));
            check_all(
                &tag("contact dynamics"),
                &[
                    &ours.ddq_dq,
                    &ours.ddq_dv,
                    &ours.ddq_dtau,
                    &ours.dlambda_dq,
                    &ours.dlambda_dv,
                    &ours.dlambda_dtau,
                ],
                &[
                    &oracle.ddq_dq,
                    &oracle.ddq_dv,
                    &oracle.ddq_dtau,
                    &oracle.dlambda_dq,
                    &oracle.dlambda_dv,
                    &oracle.dlambda_dtau,
                ],
            );

            let ours =
                impulse_dynamics_derivatives(&model, &mut data, &s.q, &s.v, &contacts, 0.3, mu)
                    .unwrap();
            let oracle = dual_oracle::impulse_dynamics_derivatives(
                &model, &mut data, &s.q, &s.v, &contacts, 0.3, mu,
            )
            .unwrap();
            check_all(
                &tag("impulse"),
                &[
                    &ours.dvplus_dq,
                    &ours.dvplus_dv,
                    &ours.dimpulse_dq,
                    &ours.dimpulse_dv,
                ],
                &[
                    &oracle.dvplus_dq,
                    &oracle.dvplus_dv,
                    &oracle.dimpulse_dq,
                    &oracle.dimpulse_dv,
                ],
            );
        }
    }
}

#[test]
fn centroidal_derivatives_equal_their_dual_oracle() {
    for (name, model) in models() {
        let mut data = Data::new(&model);
        for (k, s) in states(&model).iter().enumerate() {
            let ours =
                centroidal_dynamics_derivatives(&model, &mut data, &s.q, &s.v, &s.a).unwrap();
            let oracle =
                dual_oracle::centroidal_dynamics_derivatives(&model, &mut data, &s.q, &s.v, &s.a)
                    .unwrap();
            check_all(
                &format!("{name} state {k} centroidal"),
                &[&ours.dh_dq, &ours.dhdot_dq, &ours.dhdot_dv, &ours.dhdot_da],
                &[
                    &oracle.dh_dq,
                    &oracle.dhdot_dq,
                    &oracle.dhdot_dv,
                    &oracle.dhdot_da,
                ],
            );
        }
    }
}
