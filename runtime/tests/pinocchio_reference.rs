//! The runtime against Pinocchio reference values on real robots and on small
//! URDFs that exercise what real robots tend to hide.

mod common;

use common::{assert_close, assert_quantity, flat, Reference};
use rbdgen_runtime::{
    aba, crba, forward_kinematics, rnea, update_frame_placements, Data, FrameKind,
};

const TOL: f64 = 1e-8;

fn check(name: &str) {
    let r = Reference::load(name);
    let model = &r.model;
    let mut data = Data::<f64>::new(model);
    for (k, s) in r.states().iter().enumerate() {
        let tag = |what: &str| format!("{name} state {k} {what}");
        let (q, v, a, tau) = (flat(&s["q"]), flat(&s["v"]), flat(&s["a"]), flat(&s["tau"]));

        forward_kinematics(model, &mut data, &q).unwrap();
        for (i, omi) in s["omi"].as_array().unwrap().iter().enumerate() {
            let ours: Vec<f64> = data.o_mi[i + 1].to_homogeneous().concat();
            assert_close(
                &tag(&format!("oMi[{}]", model.joints[i + 1].name)),
                &ours,
                &flat(omi),
                TOL,
            );
        }
        update_frame_placements(model, &mut data).unwrap();
        for (frame, value) in s["frames"].as_object().unwrap() {
            let id = model.frame_id(frame, FrameKind::Body).unwrap();
            let ours: Vec<f64> = data.o_mf[id].to_homogeneous().concat();
            assert_close(
                &tag(&format!("oMf[{frame}]")),
                &ours,
                &flat(&value["placement"]),
                TOL,
            );
        }

        assert_quantity(&tag, s, "rnea", rnea(model, &mut data, &q, &v, &a).unwrap());
        let zero = vec![0.0; model.nv];
        assert_quantity(
            &tag,
            s,
            "nle",
            rnea(model, &mut data, &q, &v, &zero).unwrap(),
        );
        assert_quantity(
            &tag,
            s,
            "gravity",
            rnea(model, &mut data, &q, &zero, &zero).unwrap(),
        );
        assert_quantity(&tag, s, "crba", crba(model, &mut data, &q).unwrap());
        assert_quantity(&tag, s, "aba", aba(model, &mut data, &q, &v, &tau).unwrap());
    }
}

#[test]
fn go2_floating() {
    check("go2_floating");
}

#[test]
fn z1_fixed() {
    check("z1_fixed");
}

#[test]
fn go2_z1_floating() {
    check("go2_z1_floating");
}

#[test]
fn double_pendulum_continuous_fixed() {
    check("double_pendulum_continuous_fixed");
}

#[test]
fn panda_fixed() {
    check("panda_fixed");
}

#[test]
fn rotated_inertia_fixed() {
    check("rotated_inertia_fixed");
}

#[test]
fn fixed_weld_fixed() {
    check("fixed_weld_fixed");
}

#[test]
fn fixed_weld_massless_fixed() {
    check("fixed_weld_massless_fixed");
}

#[test]
fn massless_link_fixed() {
    check("massless_link_fixed");
}

#[test]
fn defaults_fixed() {
    check("defaults_fixed");
}

#[test]
fn continuous_chain_fixed() {
    check("continuous_chain_fixed");
}

#[test]
fn world_root_fixed() {
    check("world_root_fixed");
}

#[test]
fn world_root_floating() {
    check("world_root_floating");
}

#[test]
fn floating_joint_fixed() {
    check("floating_joint_fixed");
}

#[test]
fn floating_joint_floating() {
    check("floating_joint_floating");
}

#[test]
fn materials_fixed() {
    check("materials_fixed");
}
