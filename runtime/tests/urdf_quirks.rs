//! What real URDFs (example-robot-data's) contain and Pinocchio accepts: the
//! loader builds the same model as Pinocchio. The values are checked against
//! Pinocchio in `pinocchio_reference.rs`; these tests pin the structure.

mod common;

use common::{load_model, root};
use rbdgen_runtime::{FrameKind, JointKind, Model};

#[test]
fn materials_are_ignored() {
    // A <texture/> without a file name is refused by urdf-rs alone.
    let text = std::fs::read_to_string(root().join("tests/urdf/materials.urdf")).unwrap();
    assert!(text.contains("<texture/>"));
    let with = Model::from_urdf_str(&text, true).unwrap();
    let without = Model::from_urdf_str(&text.replace("<texture/>", ""), true).unwrap();
    assert_eq!(with, without);
    assert_eq!((with.nq, with.nv), (8, 7));
}

#[test]
fn floating_joint_is_a_free_flyer() {
    for (floating_base, names) in [
        (false, vec!["world_to_base", "shoulder"]),
        (true, vec!["root_joint", "world_to_base", "shoulder"]),
    ] {
        let model = load_model("tests/urdf/floating_joint.urdf", floating_base);
        let got: Vec<&str> = model.joints[1..].iter().map(|j| j.name.as_str()).collect();
        assert_eq!(got, names);
        let id = model.joint_id("world_to_base").unwrap();
        let joint = &model.joints[id];
        assert_eq!(joint.kind, JointKind::FreeFlyer);
        assert_eq!((joint.kind.nq(), joint.kind.nv()), (7, 6));
        // Placed at the joint origin, in the frame of `world`.
        assert_eq!(joint.placement.translation.0, [0.1, 0.2, 0.5]);
        let extra = if floating_base { (7, 6) } else { (0, 0) };
        assert_eq!((model.nq, model.nv), (8 + extra.0, 7 + extra.1));
    }
}

#[test]
fn a_root_link_named_world_is_an_ordinary_link() {
    let fixed = load_model("tests/urdf/world_root.urdf", false);
    assert_eq!((fixed.nq, fixed.nv), (1, 1));
    let base = fixed.frame_id("base", FrameKind::Body).unwrap();
    assert_eq!(fixed.frames[base].parent_joint, 0);

    let floating = load_model("tests/urdf/world_root.urdf", true);
    assert_eq!((floating.nq, floating.nv), (8, 7));
    let world = floating.frame_id("world", FrameKind::Body).unwrap();
    assert_eq!(floating.frames[world].parent_joint, 1);
    // The free-flyer carries `world` and, welded to it, `base`.
    assert_eq!(floating.joints[1].inertia.mass, 2.0);
}
