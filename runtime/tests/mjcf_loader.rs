//! What the MJCF loader makes of a file, beyond the numbers checked against
//! Pinocchio and MuJoCo: how `floating_base` and the file's joints interact,
//! the joints and frames of a multi-joint body, names of unnamed elements,
//! limits and units.

mod common;

use common::root;
use rbdgen_runtime::{FrameKind, JointKind, Model, Transform};

fn dm(name: &str) -> std::path::PathBuf {
    root().join(format!("models/mjcf/dm_control/{name}.xml"))
}

const ARM: &str = r#"<mujoco model="arm">
  <compiler angle="degree"/>
  <worldbody>
    <body name="base" pos="0 0 0.5" euler="0 0 90">
      <inertial pos="0 0 0" mass="2" diaginertia="0.1 0.1 0.1"/>
      <site pos="0 0 0.1"/>
      <body pos="0.1 0 0">
        <joint type="hinge" axis="0 0 1" range="-90 45" actuatorfrcrange="-3 2"/>
        <joint type="slide" axis="1 0 0" range="-0.2 0.3" armature="0.5"/>
        <inertial pos="0.1 0 0" mass="1" diaginertia="0.01 0.01 0.01"/>
      </body>
    </body>
  </worldbody>
</mujoco>"#;

/// `floating_base` gives a jointless first body a free-flyer `root_joint` at
/// the identity; without it the body is welded at its pose.
#[test]
fn floating_base_frees_a_jointless_first_body() {
    let fixed = Model::from_mjcf_str(ARM, false).unwrap();
    let floating = Model::from_mjcf_str(ARM, true).unwrap();
    assert_eq!((fixed.nq, fixed.nv), (2, 2));
    assert_eq!((floating.nq, floating.nv), (9, 8));
    let root = &floating.joints[1];
    assert_eq!(root.name, "root_joint");
    assert_eq!(root.kind, JointKind::FreeFlyer);
    assert_eq!(root.placement, Transform::identity());
    assert_eq!(root.inertia.mass, 2.0);
    // Welded: the base frame sits at its pose in the world.
    let base = fixed.frame_id("base", FrameKind::Body).unwrap();
    assert_eq!(fixed.frames[base].parent_joint, 0);
    assert_eq!(fixed.frames[base].placement.translation.0, [0.0, 0.0, 0.5]);
    let names: Vec<(&str, FrameKind)> = floating
        .frames
        .iter()
        .map(|f| (f.name.as_str(), f.kind))
        .collect();
    assert_eq!(
        names,
        [
            ("root_joint", FrameKind::Joint),
            ("base", FrameKind::Body),
            ("baseSite_0", FrameKind::Op),
            ("Composite_baseBisJoint_0", FrameKind::Joint),
            ("baseBis", FrameKind::Body),
        ]
    );
}

/// The flag means one thing in both formats: a free-flyer `root_joint` above
/// the first body, above its own joints when it has some (a `<freejoint>`,
/// dm_control's planar root, acrobot's hinge), as above a URDF root. Two
/// joints then move that body along the same directions, which
/// `physical_warnings` reports, naming both and the flag.
#[test]
fn floating_base_adds_a_free_flyer_above_the_files_joints_with_a_warning() {
    for (name, first) in [
        ("humanoid", "root"),
        ("cheetah", "rootx"),
        ("acrobot", "shoulder"),
    ] {
        let plain = Model::from_mjcf_file(dm(name), false).unwrap();
        let flagged = Model::from_mjcf_file(dm(name), true).unwrap();
        assert_eq!(flagged.nq, plain.nq + 7, "{name}");
        assert_eq!(flagged.nv, plain.nv + 6, "{name}");
        assert_eq!(flagged.joints[1].name, "root_joint", "{name}");
        assert_eq!(flagged.joints[1].kind, JointKind::FreeFlyer, "{name}");
        assert_eq!(flagged.joints[2].name, first, "{name}");
        assert_eq!(flagged.joints[2].parent, 1, "{name}");
        // Below the added joint, the file's model as it was.
        assert_eq!(flagged.joints[2..].len(), plain.joints[1..].len(), "{name}");
        for (a, b) in flagged.joints[2..].iter().zip(&plain.joints[1..]) {
            assert_eq!(
                (&a.name, &a.kind, &a.placement),
                (&b.name, &b.kind, &b.placement)
            );
        }
        assert!(plain.check_redundant_joints().is_ok(), "{name}");
        let warning = flagged.check_redundant_joints().unwrap_err().to_string();
        assert!(
            warning.starts_with(&format!(
                "joints `root_joint` and `{first}` move the same bodies along the same directions"
            )),
            "{name}: {warning}"
        );
        assert!(warning.contains("`floating_base`"), "{name}: {warning}");
        let all: Vec<String> = flagged
            .physical_warnings()
            .iter()
            .map(|w| w.to_string())
            .collect();
        assert!(all.contains(&warning), "{name}: {all:?}");
    }
    let humanoid = Model::from_mjcf_file(dm("humanoid"), false).unwrap();
    assert_eq!(humanoid.joints[1].name, "root");
    assert_eq!(humanoid.joints[1].kind, JointKind::FreeFlyer);
    assert_eq!(humanoid.joints[1].placement, Transform::identity());
}

/// Several joints in one body: consecutive joints named as in the file, the
/// body's inertia on the last, Pinocchio's `Composite_<first>` JOINT frame.
#[test]
fn a_multi_joint_body_is_a_chain_of_joints() {
    let cheetah = Model::from_mjcf_file(dm("cheetah"), false).unwrap();
    let names: Vec<&str> = cheetah.joints[1..4]
        .iter()
        .map(|j| j.name.as_str())
        .collect();
    assert_eq!(names, ["rootx", "rootz", "rooty"]);
    assert_eq!(cheetah.joints[2].parent, 1);
    assert_eq!(cheetah.joints[3].parent, 2);
    assert_eq!(cheetah.joints[1].inertia.mass, 0.0);
    assert_eq!(cheetah.joints[2].inertia.mass, 0.0);
    assert!(cheetah.joints[3].inertia.mass > 0.0);
    // Pinocchio: njoints 8 (universe, the composite, six hinges); here 10.
    assert_eq!(cheetah.njoints(), 10);
    let frame = cheetah
        .frame_id("Composite_rootx", FrameKind::Joint)
        .unwrap();
    assert_eq!(cheetah.frames[frame].parent_joint, 3);
    assert_eq!(
        cheetah
            .frame_id("torso", FrameKind::Body)
            .map(|f| cheetah.frames[f].parent_joint),
        Some(3)
    );
    assert_eq!(cheetah.armature[..3], [0.0; 3]);
    assert_eq!(cheetah.armature[3..], [0.1; 6]);
}

/// Unnamed bodies, joints and sites get Pinocchio's names; limits are in SI
/// units (hinge ranges converted from degrees, slide ranges not).
#[test]
fn names_and_limits() {
    let m = Model::from_mjcf_str(ARM, false).unwrap();
    assert_eq!(m.joints[1].name, "baseBisJoint_0");
    assert_eq!(m.joints[2].name, "baseBisJoint_1");
    let rad = std::f64::consts::PI / 180.0;
    assert_eq!(m.lower_position_limit, [-90.0 * rad, -0.2]);
    assert_eq!(m.upper_position_limit, [45.0 * rad, 0.3]);
    assert_eq!(m.effort_limit, [3.0, f64::INFINITY]);
    assert_eq!(m.velocity_limit, [f64::INFINITY; 2]);
    assert_eq!(m.armature, [0.0, 0.5]);
    let humanoid = Model::from_mjcf_file(dm("humanoid"), false).unwrap();
    assert!(humanoid.lower_position_limit[..7]
        .iter()
        .all(|x| *x == f64::NEG_INFINITY));
}

/// `<option gravity>` sets the model's gravity.
#[test]
fn gravity_comes_from_the_option() {
    let m = Model::from_mjcf_file(root().join("tests/mjcf/features.xml"), false).unwrap();
    assert_eq!(m.gravity.0, [0.0, 0.5, -9.7]);
    let m = Model::from_mjcf_str(ARM, false).unwrap();
    assert_eq!(m.gravity.0, [0.0, 0.0, -9.81]);
}

/// A file without `<include>` builds the same model from its text.
#[test]
fn text_and_file_agree() {
    let path = root().join("tests/mjcf/features.xml");
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(
        Model::from_mjcf_str(&text, false).unwrap(),
        Model::from_mjcf_file(&path, false).unwrap()
    );
}

/// The parser is chosen by the root element (text) or the extension (file);
/// a flattened MJCF file (includes expanded) builds the same model as text.
#[test]
fn description_by_content_or_extension_and_flattened_text() {
    use rbdgen_runtime::model::mjcf::{flatten, is_mjcf, read_description};
    for name in ["acrobot", "humanoid", "cheetah"] {
        let path = dm(name);
        let model = Model::from_mjcf_file(&path, false).unwrap();
        assert_eq!(Model::from_description_file(&path, false).unwrap(), model);
        let flat = flatten(&path).unwrap();
        assert!(!flat.contains("<include"), "{name}");
        assert!(is_mjcf(&flat));
        assert_eq!(Model::from_mjcf_str(&flat, false).unwrap(), model, "{name}");
        assert_eq!(read_description(&path).unwrap(), flat);
        assert_eq!(
            Model::from_description_str(&flat, true).unwrap(),
            Model::from_mjcf_file(&path, true).unwrap()
        );
    }
    let urdf = root().join("models/z1.urdf");
    let text = std::fs::read_to_string(&urdf).unwrap();
    assert!(!is_mjcf(&text));
    assert_eq!(read_description(&urdf).unwrap(), text);
    assert_eq!(
        Model::from_description_file(&urdf, true).unwrap(),
        Model::from_urdf_file(&urdf, true).unwrap()
    );
    assert_eq!(
        Model::from_description_str(&text, false).unwrap(),
        Model::from_urdf_str(&text, false).unwrap()
    );
    assert!(is_mjcf(
        "<?xml version=\"1.0\"?>\n<!-- a -- comment -->\n<mujoco model=\"x\"/>"
    ));
    assert!(is_mjcf("<mujoco>"));
    assert!(!is_mjcf("<mujocox/>"));
    assert!(!is_mjcf("<robot name=\"mujoco\"/>"));
    // An MJCF error keeps its element and line through the chooser.
    let e = Model::from_description_str(
        "<mujoco>\n<worldbody>\n<joint/>\n</worldbody>\n</mujoco>",
        false,
    )
    .unwrap_err();
    assert!(e.to_string().starts_with("line 3: <joint>"), "{e}");
}
