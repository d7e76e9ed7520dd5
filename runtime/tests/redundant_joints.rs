//! Two joints that move the same bodies along the same directions
//! (`Model::check_redundant_joints`): a free-flyer added by `floating_base`
//! above a root that a URDF `floating` joint already frees, two revolute
//! joints on one axis with a massless link between them. The warning is
//! checked against the mass matrix itself: where it is given, `M` has the
//! null vector the two joints make; where it is not, `M` is positive
//! definite.

mod common;

use common::{cholesky, root};
use rbdgen_runtime::{crba, Data, Model, ModelError, Motion};

/// Go2 as written with a `world` root link (no mass) joined to the base by a
/// `floating` joint, as some URDFs are: with `floating_base`, two free-flyers
/// in series.
fn go2_below_world() -> String {
    let go2 = std::fs::read_to_string(root().join("models/go2.urdf")).unwrap();
    go2.replacen(
        r#"<link name="base">"#,
        r#"<link name="world"/>
  <joint name="world_to_base" type="floating">
    <origin xyz="0.1 -0.2 0.3" rpy="0.3 -0.2 0.5"/>
    <parent link="world"/>
    <child link="base"/>
  </joint>
  <link name="base">"#,
        1,
    )
}

/// A chain `a -j1-> middle -j2-> b` with `middle` massless and the axes given.
fn chain(axis1: &str, axis2: &str) -> String {
    let inertial = r#"<inertial><origin xyz="0 0 0.1"/><mass value="1"/>
      <inertia ixx="0.01" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial>"#;
    format!(
        r#"<robot name="chain">
  <link name="a">{inertial}</link>
  <link name="middle"/>
  <link name="b">{inertial}</link>
  <joint name="j1" type="continuous"><origin xyz="0 0 0.1"/><parent link="a"/><child link="middle"/><axis xyz="{axis1}"/></joint>
  <joint name="j2" type="continuous"><origin xyz="0 0 0.2"/><parent link="middle"/><child link="b"/><axis xyz="{axis2}"/></joint>
</robot>"#
    )
}

fn mass_matrix(model: &Model) -> Vec<f64> {
    let mut data = Data::new(model);
    crba(model, &mut data, &model.neutral()).unwrap().to_vec()
}

fn redundant(model: &Model) -> Option<ModelError> {
    model
        .physical_warnings()
        .into_iter()
        .find(|w| matches!(w, ModelError::RedundantJoints { .. }))
}

#[test]
fn a_free_flyer_above_a_floating_joint_is_reported_and_singular() {
    let text = go2_below_world();
    let model = Model::from_urdf_str(&text, true).unwrap();
    assert_eq!((model.nq, model.nv), (7 + 7 + 12, 6 + 6 + 12));
    let warning = redundant(&model).expect("no warning").to_string();
    assert!(
        warning.starts_with(
            "joints `root_joint` and `world_to_base` move the same bodies along the same directions"
        ),
        "{warning}"
    );
    assert!(
        warning.contains("`floating_base` (--floating-base) added"),
        "{warning}"
    );
    assert_eq!(
        model.check_redundant_joints().unwrap_err().to_string(),
        warning
    );

    // The null vector: any root twist, undone by the floating joint.
    let m = mass_matrix(&model);
    let nv = model.nv;
    let scale = m.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    let placement = model.joints[2].placement;
    for k in 0..6 {
        let mut twist = [0.0; 6];
        twist[k] = 1.0;
        let undo = placement
            .act_inv_motion(&Motion::from_slice(&twist))
            .to_array();
        let mut v = vec![0.0; nv];
        v[..6].copy_from_slice(&twist);
        for (x, u) in v[6..12].iter_mut().zip(undo) {
            *x = -u;
        }
        let mv: f64 = (0..nv)
            .map(|r| (0..nv).map(|c| m[r * nv + c] * v[c]).sum::<f64>().abs())
            .fold(0.0, f64::max);
        assert!(mv < 1e-12 * scale, "direction {k}: |M v| = {mv}");
    }

    // Without the flag the file's joint is the only free-flyer: no warning,
    // and M is positive definite.
    let plain = Model::from_urdf_str(&text, false).unwrap();
    assert_eq!((plain.nq, plain.nv), (19, 18));
    assert!(plain.physical_warnings().is_empty());
    assert!(cholesky(&mass_matrix(&plain), plain.nv).is_ok());
}

/// A mass on the root makes the two free-flyers move different bodies
/// (`tests/urdf/floating_joint.urdf`: a wheel welded to `world`).
#[test]
fn a_free_flyer_above_a_massive_root_is_not_reported() {
    let text = std::fs::read_to_string(root().join("tests/urdf/floating_joint.urdf")).unwrap();
    let model = Model::from_urdf_str(&text, true).unwrap();
    assert!(redundant(&model).is_none());
    assert!(cholesky(&mass_matrix(&model), model.nv).is_ok());
}

#[test]
fn two_revolutes_on_one_axis_through_a_massless_link_are_reported() {
    let model = Model::from_urdf_str(&chain("0 0 1", "0 0 1"), false).unwrap();
    let warning = redundant(&model).expect("no warning").to_string();
    assert!(
        warning.starts_with("joints `j1` and `j2` move the same bodies"),
        "{warning}"
    );
    assert!(!warning.contains("floating_base"), "{warning}");
    // Turning one way about the axis and back the other moves nothing.
    let m = mass_matrix(&model);
    assert_eq!(model.nv, 2);
    let scale = m.iter().fold(0.0f64, |a, x| a.max(x.abs()));
    for row in m.chunks(2) {
        assert!((row[0] - row[1]).abs() < 1e-12 * scale, "{m:?}");
    }
    // Parallel axes that do not coincide, and crossed axes, move the body
    // differently: no warning, M positive definite.
    for (a1, a2) in [("1 0 0", "1 0 0"), ("0 0 1", "0 1 0")] {
        let model = Model::from_urdf_str(&chain(a1, a2), false).unwrap();
        assert!(redundant(&model).is_none(), "{a1} / {a2}");
        assert!(
            cholesky(&mass_matrix(&model), model.nv).is_ok(),
            "{a1} / {a2}"
        );
    }
}

/// The example robots have no such pair, with or without a free-flyer.
#[test]
fn the_shipped_robots_have_no_redundant_joints() {
    for name in [
        "go2_z1",
        "g1_29dof",
        "panda",
        "z1",
        "double_pendulum_continuous",
    ] {
        for floating in [false, true] {
            let model = common::load_model(&format!("models/{name}.urdf"), floating);
            assert!(model.check_redundant_joints().is_ok(), "{name} {floating}");
        }
    }
}
