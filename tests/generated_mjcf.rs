//! `robot_dynamics!` on MJCF files (picked by extension and root element):
//! MuJoCo Menagerie's Unitree Go2 (free joint, armature from its defaults)
//! and dm_control's cheetah (a planar root of three joints in one body),
//! against the runtime's model of the same file on random states (1e-10).

#[path = "../runtime/tests/common/mod.rs"]
mod common;

use common::{assert_close, random_q, random_vec, root};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen::runtime::{aba, crba, rnea, Data, Model};

rbdgen::robot_dynamics!(mod go2, "models/mjcf/menagerie/unitree_go2/go2.xml", functions = [rnea, crba, aba]);
rbdgen::robot_dynamics!(mod cheetah, "models/mjcf/dm_control/cheetah.xml", functions = [rnea, crba, aba]);

macro_rules! check {
    ($m:ident, $file:literal) => {{
        let model = Model::from_description_file(root().join($file), false).unwrap();
        assert_eq!((model.nq, model.nv), ($m::NQ, $m::NV), $file);
        let mut data = Data::new(&model);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for _ in 0..20 {
            let q: [f64; $m::NQ] = random_q(&model, &mut rng).try_into().unwrap();
            let v: [f64; $m::NV] = random_vec(model.nv, 1.0, &mut rng).try_into().unwrap();
            let a: [f64; $m::NV] = random_vec(model.nv, 1.0, &mut rng).try_into().unwrap();
            assert_close(
                "rnea",
                &$m::rnea(&q, &v, &a),
                rnea(&model, &mut data, &q, &v, &a).unwrap(),
                1e-10,
            );
            assert_close(
                "crba",
                $m::crba(&q).as_flattened(),
                crba(&model, &mut data, &q).unwrap(),
                1e-10,
            );
            assert_close(
                "aba",
                &$m::aba(&q, &v, &a),
                aba(&model, &mut data, &q, &v, &a).unwrap(),
                1e-10,
            );
        }
        model
    }};
}

#[test]
fn mjcf_models_through_the_macro_match_the_runtime() {
    let go2 = check!(go2, "models/mjcf/menagerie/unitree_go2/go2.xml");
    assert!(
        go2.armature.iter().any(|&a| a > 0.0),
        "Menagerie's Go2 sets an armature"
    );
    let cheetah = check!(cheetah, "models/mjcf/dm_control/cheetah.xml");
    assert!(cheetah.nv >= 9);
}
