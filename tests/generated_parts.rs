//! Functions long enough to be emitted in parts (a chain of part functions
//! passing values through a spill struct), on a 60-joint serial chain
//! (`tests/urdf/long/long_chain.urdf`): the scalar result of `kinetic_energy`
//! (written through `*out` by the last part) and a per-frame function,
//! `frame_jacobian_local` of the last link (parts and spill struct named after
//! the frame), against the generic runtime on random states (1e-10).

#[path = "../runtime/tests/common/mod.rs"]
mod common;

use std::collections::BTreeSet;

use common::{assert_close, random_q, random_vec, root};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen::runtime::{
    compute_joint_jacobians, frame_jacobian, kinetic_energy, Data, FrameKind, Model, ReferenceFrame,
};
use rbdgen::symbolic::{generate_module, Function, Options};

const URDF: &str = "tests/urdf/long/long_chain.urdf";

rbdgen::robot_dynamics!(mod chain, "tests/urdf/long/long_chain.urdf", functions = [kinetic_energy, frame_jacobian_local], frames = [link60]);

#[test]
fn both_functions_are_emitted_in_parts() {
    let urdf = std::fs::read_to_string(root().join(URDF)).unwrap();
    let options = Options {
        functions: BTreeSet::from([Function::KineticEnergy, Function::FrameJacobianLocal]),
        frames: Some(vec!["link60".to_string()]),
        ..Options::default()
    };
    let source = generate_module(&urdf, &options, |_| {})
        .unwrap()
        .source()
        .unwrap();
    for item in [
        "mod kinetic_energy_part1",
        "struct KineticEnergySpill(",
        "mod frame_jacobian_local_Link60_part1",
        "struct FrameJacobianLocalSpillLink60(",
    ] {
        assert!(source.contains(item), "no `{item}` in the generated module");
    }
}

#[test]
fn functions_in_parts_match_the_runtime() {
    let model = Model::from_urdf_file(root().join(URDF), false).unwrap();
    assert_eq!((chain::NQ, chain::NV), (model.nq, model.nv));
    let frame = chain::Frame::ALL[0];
    let id = model
        .frames
        .iter()
        .position(|f| f.kind == FrameKind::Body && f.name == frame.name())
        .unwrap();
    let mut data = Data::<f64>::new(&model);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..10 {
        let q = random_q(&model, &mut rng);
        let v = random_vec(model.nv, 1.0, &mut rng);
        let (qa, va): (&[f64; chain::NQ], &[f64; chain::NV]) =
            (q[..].try_into().unwrap(), v[..].try_into().unwrap());
        let energy = kinetic_energy(&model, &mut data, &q, &v).unwrap();
        assert_close(
            "kinetic_energy",
            &[chain::kinetic_energy(qa, va)],
            &[energy],
            1e-10,
        );
        compute_joint_jacobians(&model, &mut data, &q).unwrap();
        let j = frame_jacobian(&model, &data, id, ReferenceFrame::Local).unwrap();
        assert_close(
            "frame_jacobian_local",
            chain::frame_jacobian_local(qa, frame).as_flattened(),
            &j,
            1e-10,
        );
    }
}
