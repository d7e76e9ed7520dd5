//! Gait modes: one `robot_dynamics!` module with named contact sets
//! (`contact_sets = { ... }`), each a submodule with its contact functions,
//! `NC` and `CONTACTS` (and its lanes), the other functions once at the top:
//! each set's functions against the runtime with that set, flight's
//! `contact_dynamics` against ABA.

#[path = "../runtime/tests/common/mod.rs"]
mod common;

use common::{assert_close, load_model, random_q, random_vec};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rbdgen::runtime::{aba, contact_dynamics, contact_jacobian, ContactKind, Data};

rbdgen::robot_dynamics!(
    mod go2,
    "models/go2.urdf",
    floating_base,
    contact_sets = {
        stance: [FL_foot: point, FR_foot: point, RL_foot: point, RR_foot: point],
        trot_a: [FL_foot: point, RR_foot: point],
        flight: [],
    },
    lanes = 2,
    functions = [aba, contact_jacobian, contact_dynamics]
);

#[test]
fn each_set_has_its_contacts() {
    assert_eq!(go2::stance::NC, 12);
    assert_eq!(go2::trot_a::NC, 6);
    assert_eq!(go2::flight::NC, 0);
    assert_eq!(go2::trot_a::CONTACTS, [("FL_foot", 3), ("RR_foot", 3)]);
}

#[test]
fn each_set_against_the_runtime() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let base = load_model("models/go2.urdf", true);
    let feet = ["FL_foot", "FR_foot", "RL_foot", "RR_foot"].map(|f| (f, ContactKind::Point));
    let sets: [&[(&str, ContactKind)]; 3] = [&feet, &[feet[0], feet[3]], &[]];
    for _ in 0..3 {
        let q = random_q(&base, &mut rng);
        let v = random_vec(base.nv, 1.0, &mut rng);
        let tau = random_vec(base.nv, 5.0, &mut rng);
        let qa: &[f64; go2::NQ] = q.as_slice().try_into().unwrap();
        let va: &[f64; go2::NV] = v.as_slice().try_into().unwrap();
        let ta: &[f64; go2::NV] = tau.as_slice().try_into().unwrap();
        let ours: [(Vec<f64>, Vec<f64>, Vec<f64>); 3] = [
            {
                let (a, l) = go2::stance::contact_dynamics(qa, va, ta, 0.0);
                (
                    a.to_vec(),
                    l.to_vec(),
                    go2::stance::contact_jacobian(qa).concat(),
                )
            },
            {
                let (a, l) = go2::trot_a::contact_dynamics(qa, va, ta, 0.0);
                (
                    a.to_vec(),
                    l.to_vec(),
                    go2::trot_a::contact_jacobian(qa).concat(),
                )
            },
            {
                let (a, l) = go2::flight::contact_dynamics(qa, va, ta, 0.0);
                (
                    a.to_vec(),
                    l.to_vec(),
                    go2::flight::contact_jacobian(qa).concat(),
                )
            },
        ];
        for (set, (a, l, j)) in sets.iter().zip(&ours) {
            let mut model = base.clone();
            model.set_contacts(set).unwrap();
            let mut data = Data::new(&model);
            let c = &model.contacts;
            let (wa, wl) = contact_dynamics(&model, &mut data, &q, &v, &tau, c, 0.0).unwrap();
            assert_close(&format!("{set:?} a"), a, &wa, 1e-10);
            assert_close(&format!("{set:?} λ"), l, &wl, 1e-10);
            let wj = contact_jacobian(&model, &mut data, &q, c).unwrap();
            assert_close(&format!("{set:?} J"), j, &wj, 1e-10);
        }
        // Flight: no contact, the free dynamics; and the top's aba.
        let mut data = Data::new(&base);
        let free = aba(&base, &mut data, &q, &v, &tau).unwrap().to_vec();
        assert_close("flight = aba", &ours[2].0, &free, 1e-10);
        assert_close("top aba", &go2::aba(qa, va, ta), &free, 1e-10);
        // The sets' lanes.
        let (a, _) =
            go2::stance::lanes::contact_dynamics_aos(&[*qa; 2], &[*va; 2], &[*ta; 2], &[0.0; 2])[1];
        assert_close("stance lanes", &a, &ours[0].0, 1e-12);
    }
}
