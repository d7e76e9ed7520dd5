//! The model's topology against its definitions walked from the joints'
//! parents, and the check that a `Data` is used with the model it was built for.

mod common;

use common::{load_model, root};
use rbdgen_runtime::{rnea, Data, InputError, Model};

/// Every robot of `models/`: URDF (fixed and floating base) and MJCF.
fn models() -> Vec<(String, Model)> {
    let mut out = Vec::new();
    for name in [
        "go2_z1",
        "g1_29dof",
        "panda",
        "z1",
        "double_pendulum_continuous",
    ] {
        for floating in [false, true] {
            let model = load_model(&format!("models/{name}.urdf"), floating);
            out.push((format!("{name} floating {floating}"), model));
        }
    }
    for name in ["humanoid", "humanoid_CMU", "cheetah", "manipulator"] {
        let path = root().join(format!("models/mjcf/dm_control/{name}.xml"));
        out.push((name.to_string(), Model::from_mjcf_file(path, true).unwrap()));
    }
    out
}

/// Whether joint `a` is joint `i` or one of its ancestors, by walking parents.
fn joint_ancestor(model: &Model, a: usize, mut i: usize) -> bool {
    loop {
        if i == a {
            return true;
        }
        if i == 0 {
            return false;
        }
        i = model.joints[i].parent;
    }
}

/// The joint of each dof.
fn dof_joints(model: &Model) -> Vec<usize> {
    let mut out = vec![0; model.nv];
    for (i, joint) in model.joints.iter().enumerate() {
        for k in joint.v_range() {
            out[k] = i;
        }
    }
    out
}

#[test]
fn the_topology_matches_its_definitions_on_every_robot() {
    for (name, model) in models() {
        let tree = model.topology();
        let joint_of = dof_joints(&model);
        let nv = model.nv;
        // Dof k is an ancestor-or-self of dof i: its joint is an ancestor of
        // i's, or the same joint and k comes first.
        let ancestor = |k: usize, i: usize| {
            let (a, b) = (joint_of[k], joint_of[i]);
            joint_ancestor(&model, a, b) && (a != b || k <= i)
        };
        for i in 0..nv {
            // λ(i): the nearest strict ancestor, the largest one.
            let want = (0..i).rev().find(|&k| ancestor(k, i));
            assert_eq!(tree.dof_parents()[i], want, "{name}: parent of dof {i}");
            let below: Vec<usize> = (0..nv).filter(|&j| ancestor(i, j)).collect();
            assert_eq!(
                tree.dof_subtree(i).collect::<Vec<_>>(),
                below,
                "{name}: subtree of dof {i}"
            );
            for k in 0..nv {
                assert_eq!(
                    tree.is_dof_ancestor(k, i),
                    ancestor(k, i),
                    "{name}: {k}, {i}"
                );
            }
            let branch: Vec<usize> = (0..nv)
                .filter(|&j| {
                    joint_ancestor(&model, joint_of[j], joint_of[i])
                        || joint_ancestor(&model, joint_of[i], joint_of[j])
                })
                .collect();
            let mut got = vec![usize::MAX];
            tree.branch_dofs(i, &mut got);
            assert_eq!(got, branch, "{name}: branch of dof {i}");
        }
        let mut support = Vec::new();
        for i in 0..model.njoints() {
            let want: Vec<usize> = (1..=i).filter(|&a| joint_ancestor(&model, a, i)).collect();
            tree.support(i, &mut support);
            assert_eq!(support, want, "{name}: support of joint {i}");
        }
    }
}

/// go2_z1's URDF with the first `<mass value="...">` multiplied by 2: the same
/// sizes and tree, another robot.
fn heavier_go2_z1() -> Model {
    let text = std::fs::read_to_string(root().join("models/go2_z1.urdf")).unwrap();
    let at = text.find("<mass value=\"").unwrap() + "<mass value=\"".len();
    let end = at + text[at..].find('"').unwrap();
    let mass: f64 = text[at..end].parse().unwrap();
    let text = format!("{}{}{}", &text[..at], 2.0 * mass, &text[end..]);
    Model::from_urdf_str(&text, true).unwrap()
}

#[test]
fn a_data_works_with_its_model_a_reload_and_a_clone_with_other_settings() {
    let model = load_model("models/go2_z1.urdf", true);
    let data = Data::<f64>::new(&model);
    assert_eq!(data.check(&model), Ok(()));
    assert_eq!(data.check(&load_model("models/go2_z1.urdf", true)), Ok(()));
    let mut clone = model.clone();
    clone.set_armature("FR_hip_joint", 0.1).unwrap();
    assert_eq!(data.check(&clone), Ok(()));
}

#[test]
fn a_data_built_for_another_model_is_refused() {
    let model = load_model("models/go2_z1.urdf", true);
    let data = Data::<f64>::new(&model);
    let fixed = load_model("models/go2_z1.urdf", false);
    let e = data.check(&fixed).unwrap_err();
    assert!(e.data.contains(&format!("nv = {}", model.nv)), "{e}");
    assert!(e.model.contains(&format!("nv = {}", fixed.nv)), "{e}");
    // Same sizes, another body mass: the Data's copy of the inertias is wrong.
    let heavier = heavier_go2_z1();
    assert_eq!((heavier.nq, heavier.nv), (model.nq, model.nv));
    let e = data.check(&heavier).unwrap_err();
    assert!(e.to_string().contains("fingerprint"), "{e}");
}

#[test]
fn an_algorithm_refuses_a_data_built_for_another_model() {
    let model = load_model("models/go2_z1.urdf", true);
    let heavier = heavier_go2_z1();
    let mut data = Data::<f64>::new(&model);
    let (q, zero) = (heavier.neutral(), vec![0.0; heavier.nv]);
    let e = rnea(&heavier, &mut data, &q, &zero, &zero).unwrap_err();
    assert_eq!(e, InputError::Data(data.check(&heavier).unwrap_err()));
    assert!(
        e.to_string()
            .starts_with("the Data was built for another model"),
        "{e}"
    );
}
