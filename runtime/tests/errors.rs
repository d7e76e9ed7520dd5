//! Bad input to the runtime's algorithms is an `InputError`, never a panic:
//! every entry point taking slices is called, from a table, with each slice
//! one element too long and empty, with an index past the model's, and with
//! a `Data` built for another model; the error names the argument and both
//! lengths, and the workspace is left as it was (all checks come first).

mod common;

use common::load_model;
use rbdgen_runtime::{
    aba, aba_derivatives, aba_derivatives_fext, aba_dfext, aba_fext, actuated_dofs, ccrba,
    center_of_mass, center_of_pressure, centroidal_momentum_rate, compute_joint_jacobians,
    compute_joint_jacobians_time_variation, contact_drift, contact_dynamics,
    contact_inverse_dynamics, contact_jacobian, contact_rows, crba, d_difference, d_integrate,
    dccrba, difference, forward_kinematics, frame_acceleration_drift, frame_jacobian,
    frame_jacobian_time_variation, frame_placement, generalized_gravity, integrate,
    jacobian_center_of_mass, joint_jacobian, joint_torque_regressor, kinetic_energy, minverse,
    nonlinear_effects, pose_error, potential_energy, rnea, rnea_derivatives, rnea_derivatives_fext,
    rnea_fext, set_link_parameters, step, step_jacobians, step_linearization,
    update_frame_placements, ArgumentPosition, Contact, ContactKind, Data, Force, InputError,
    Model, Quaternion, ReferenceFrame, Transform,
};

/// The arguments of every entry point, each of the length `model` needs
/// (`fext` as wrenches, one per joint).
#[derive(Clone)]
struct Args {
    q: Vec<f64>,
    q1: Vec<f64>,
    v: Vec<f64>,
    a: Vec<f64>,
    tau: Vec<f64>,
    fext: Vec<Force<f64>>,
    pi: Vec<f64>,
    u: Vec<f64>,
    lambda: Vec<f64>,
    v_next: Vec<f64>,
    ddq_dq: Vec<f64>,
    ddq_dv: Vec<f64>,
    ddq_dtau: Vec<f64>,
    contacts: Vec<Contact>,
    frame: usize,
    joint: usize,
}

impl Args {
    fn new(model: &Model) -> Self {
        let nv = model.nv;
        let vec = |n: usize, x: f64| vec![x; n];
        Args {
            q: model.neutral(),
            q1: model.neutral(),
            v: vec(nv, 0.1),
            a: vec(nv, 0.2),
            tau: vec(nv, 0.3),
            fext: vec![Force::zero(); model.njoints()],
            pi: rbdgen_runtime::link_parameters(model),
            u: vec(actuated_dofs(model).len(), 0.4),
            lambda: vec(contact_rows(&model.contacts), 1.0),
            v_next: vec(nv, 0.1),
            ddq_dq: vec(nv * nv, 0.0),
            ddq_dv: vec(nv * nv, 0.0),
            ddq_dtau: vec(nv * nv, 0.0),
            contacts: model.contacts.clone(),
            frame: model.frames.len() - 1,
            joint: model.njoints() - 1,
        }
    }

    /// The length of argument `name`, and a setter of its length.
    fn resize(&mut self, name: &str, len: usize) -> usize {
        fn set<T: Clone + Default>(x: &mut Vec<T>, len: usize) -> usize {
            let old = x.len();
            x.resize(len, T::default());
            old
        }
        match name {
            "q" | "q0" => set(&mut self.q, len),
            "q1" => set(&mut self.q1, len),
            "v" => set(&mut self.v, len),
            "a" | "ddq" => set(&mut self.a, len),
            "tau" => set(&mut self.tau, len),
            "fext" => {
                let old = self.fext.len();
                self.fext.resize(len, Force::zero());
                old
            }
            "pi" => set(&mut self.pi, len),
            "u" => set(&mut self.u, len),
            "lambda" => set(&mut self.lambda, len),
            "v_next" => set(&mut self.v_next, len),
            "ddq_dq" => set(&mut self.ddq_dq, len),
            "ddq_dv" => set(&mut self.ddq_dv, len),
            "ddq_dtau" => set(&mut self.ddq_dtau, len),
            _ => panic!("no argument {name}"),
        }
    }
}

type Call = fn(&Model, &mut Data<f64>, &Args) -> Result<(), InputError>;

/// One entry point: its name, its slice arguments, its index argument (if
/// any), whether it takes a `Data`, and a call of it.
struct Case {
    name: &'static str,
    slices: &'static [&'static str],
    index: Option<&'static str>,
    takes_data: bool,
    call: Call,
}

const fn case(name: &'static str, slices: &'static [&'static str], call: Call) -> Case {
    Case {
        name,
        slices,
        index: None,
        takes_data: true,
        call,
    }
}

const fn pure(name: &'static str, slices: &'static [&'static str], call: Call) -> Case {
    Case {
        name,
        slices,
        index: None,
        takes_data: false,
        call,
    }
}

const fn indexed(
    name: &'static str,
    slices: &'static [&'static str],
    index: &'static str,
    call: Call,
) -> Case {
    Case {
        name,
        slices,
        index: Some(index),
        takes_data: true,
        call,
    }
}

fn cases() -> Vec<Case> {
    use ArgumentPosition::{Arg0, Arg1};
    use ReferenceFrame::Local;
    vec![
        case("rnea", &["q", "v", "a"], |m, d, x| {
            rnea(m, d, &x.q, &x.v, &x.a).map(drop)
        }),
        case("rnea_fext", &["q", "v", "a", "fext"], |m, d, x| {
            rnea_fext(m, d, &x.q, &x.v, &x.a, &x.fext).map(drop)
        }),
        case("aba", &["q", "v", "tau"], |m, d, x| {
            aba(m, d, &x.q, &x.v, &x.tau).map(drop)
        }),
        case("aba_fext", &["q", "v", "tau", "fext"], |m, d, x| {
            aba_fext(m, d, &x.q, &x.v, &x.tau, &x.fext).map(drop)
        }),
        case("crba", &["q"], |m, d, x| crba(m, d, &x.q).map(drop)),
        case("minverse", &["q"], |m, d, x| minverse(m, d, &x.q).map(drop)),
        case("nonlinear_effects", &["q", "v"], |m, d, x| {
            nonlinear_effects(m, d, &x.q, &x.v).map(drop)
        }),
        case("generalized_gravity", &["q"], |m, d, x| {
            generalized_gravity(m, d, &x.q).map(drop)
        }),
        case("forward_kinematics", &["q"], |m, d, x| {
            forward_kinematics(m, d, &x.q)
        }),
        indexed("frame_placement", &[], "frame", |m, d, x| {
            frame_placement(m, d, x.frame).map(drop)
        }),
        case("update_frame_placements", &[], |m, d, _| {
            update_frame_placements(m, d)
        }),
        case("kinetic_energy", &["q", "v"], |m, d, x| {
            kinetic_energy(m, d, &x.q, &x.v).map(drop)
        }),
        case("potential_energy", &["q"], |m, d, x| {
            potential_energy(m, d, &x.q).map(drop)
        }),
        case("center_of_mass", &["q"], |m, d, x| {
            center_of_mass(m, d, &x.q).map(drop)
        }),
        case("jacobian_center_of_mass", &["q"], |m, d, x| {
            jacobian_center_of_mass(m, d, &x.q).map(drop)
        }),
        case("ccrba", &["q", "v"], |m, d, x| {
            ccrba(m, d, &x.q, &x.v).map(drop)
        }),
        case("dccrba", &["q", "v"], |m, d, x| {
            dccrba(m, d, &x.q, &x.v).map(drop)
        }),
        case("centroidal_momentum_rate", &["q", "v", "a"], |m, d, x| {
            centroidal_momentum_rate(m, d, &x.q, &x.v, &x.a).map(drop)
        }),
        case("compute_joint_jacobians", &["q"], |m, d, x| {
            compute_joint_jacobians(m, d, &x.q).map(drop)
        }),
        indexed("joint_jacobian", &[], "joint", |m, d, x| {
            joint_jacobian(m, d, x.joint, Local).map(drop)
        }),
        indexed("frame_jacobian", &[], "frame", |m, d, x| {
            frame_jacobian(m, d, x.frame, Local).map(drop)
        }),
        case(
            "compute_joint_jacobians_time_variation",
            &["q", "v"],
            |m, d, x| compute_joint_jacobians_time_variation(m, d, &x.q, &x.v).map(drop),
        ),
        indexed("frame_jacobian_time_variation", &[], "frame", |m, d, x| {
            frame_jacobian_time_variation(m, d, x.frame, Local).map(drop)
        }),
        indexed(
            "frame_acceleration_drift",
            &["q", "v"],
            "frame",
            |m, d, x| frame_acceleration_drift(m, d, &x.q, &x.v, x.frame).map(drop),
        ),
        indexed("pose_error", &["q"], "frame", |m, d, x| {
            pose_error(m, d, &x.q, x.frame, &Transform::identity()).map(drop)
        }),
        case("rnea_derivatives", &["q", "v", "a"], |m, d, x| {
            rnea_derivatives(m, d, &x.q, &x.v, &x.a).map(drop)
        }),
        case(
            "rnea_derivatives_fext",
            &["q", "v", "a", "fext"],
            |m, d, x| rnea_derivatives_fext(m, d, &x.q, &x.v, &x.a, &x.fext).map(drop),
        ),
        case("aba_derivatives", &["q", "v", "tau"], |m, d, x| {
            aba_derivatives(m, d, &x.q, &x.v, &x.tau).map(drop)
        }),
        case(
            "aba_derivatives_fext",
            &["q", "v", "tau", "fext"],
            |m, d, x| aba_derivatives_fext(m, d, &x.q, &x.v, &x.tau, &x.fext).map(drop),
        ),
        case("aba_dfext", &["q"], |m, d, x| {
            aba_dfext(m, d, &x.q).map(drop)
        }),
        case("set_link_parameters", &["pi"], |m, d, x| {
            set_link_parameters(m, d, &x.pi)
        }),
        case("joint_torque_regressor", &["q", "v", "a"], |m, d, x| {
            joint_torque_regressor(m, d, &x.q, &x.v, &x.a).map(drop)
        }),
        indexed("contact_jacobian", &["q"], "contacts", |m, d, x| {
            contact_jacobian(m, d, &x.q, &x.contacts).map(drop)
        }),
        indexed("contact_drift", &["q", "v"], "contacts", |m, d, x| {
            contact_drift(m, d, &x.q, &x.v, &x.contacts).map(drop)
        }),
        indexed(
            "contact_dynamics",
            &["q", "v", "tau"],
            "contacts",
            |m, d, x| contact_dynamics(m, d, &x.q, &x.v, &x.tau, &x.contacts, 1e-6).map(drop),
        ),
        indexed(
            "contact_inverse_dynamics",
            &["q", "v", "ddq", "lambda"],
            "contacts",
            |m, d, x| {
                contact_inverse_dynamics(m, d, &x.q, &x.v, &x.a, &x.lambda, &x.contacts).map(drop)
            },
        ),
        indexed(
            "center_of_pressure",
            &["q", "lambda"],
            "contacts",
            |m, d, x| center_of_pressure(m, d, &x.q, &x.contacts, &x.lambda, 0.0).map(drop),
        ),
        case("step", &["q", "v", "u"], |m, d, x| {
            step(m, d, &x.q, &x.v, &x.u, 0.01).map(drop)
        }),
        case("step_linearization", &["q", "v", "u"], |m, d, x| {
            step_linearization(m, d, &x.q, &x.v, &x.u, 0.01).map(drop)
        }),
        pure(
            "step_jacobians",
            &["q", "v_next", "ddq_dq", "ddq_dv", "ddq_dtau"],
            |m, _, x| {
                step_jacobians(m, &x.q, &x.v_next, 0.01, &x.ddq_dq, &x.ddq_dv, &x.ddq_dtau)
                    .map(drop)
            },
        ),
        pure("integrate", &["q", "v"], |m, _, x| {
            integrate(m, &x.q, &x.v).map(drop)
        }),
        pure("difference", &["q0", "q1"], |m, _, x| {
            difference(m, &x.q, &x.q1).map(drop)
        }),
        pure("d_integrate", &["q", "v"], |m, _, x| {
            d_integrate(m, &x.q, &x.v, Arg0)?;
            d_integrate(m, &x.q, &x.v, Arg1).map(drop)
        }),
        pure("d_difference", &["q0", "q1"], |m, _, x| {
            d_difference(m, &x.q, &x.q1, Arg0)?;
            d_difference(m, &x.q, &x.q1, Arg1).map(drop)
        }),
    ]
}

/// A free-flyer Go2 with a Z1 arm (nq ≠ nv), two foot contacts (a point and
/// a 6-D one) and the run-time parameters of one link.
fn model() -> Model {
    let mut model = load_model("models/go2_z1.urdf", true);
    model
        .set_contacts(&[
            ("FL_foot", ContactKind::Point),
            ("RR_foot", ContactKind::Frame6d),
        ])
        .unwrap();
    model.set_parameters(&["FL_foot"]).unwrap();
    model
}

/// The workspace as text: to see that a refused call wrote nothing.
fn snapshot(data: &Data<f64>) -> String {
    format!("{data:?}")
}

#[test]
fn every_entry_point_names_the_argument_and_both_lengths() {
    let model = model();
    let good = Args::new(&model);
    let mut checked = 0;
    for case in cases() {
        let mut data = Data::new(&model);
        (case.call)(&model, &mut data, &good)
            .unwrap_or_else(|e| panic!("{}: right arguments refused: {e}", case.name));
        for &argument in case.slices {
            let expected = good.clone().resize(argument, 0);
            for len in [expected + 1, expected.saturating_sub(1), 0] {
                if len == expected {
                    continue;
                }
                let mut bad = good.clone();
                bad.resize(argument, len);
                let before = snapshot(&data);
                let e = (case.call)(&model, &mut data, &bad).unwrap_err();
                assert_eq!(
                    e,
                    InputError::Length {
                        argument,
                        len,
                        expected
                    },
                    "{}",
                    case.name
                );
                assert_eq!(
                    e.to_string(),
                    format!("`{argument}` has length {len}, expected {expected}")
                );
                assert!(snapshot(&data) == before, "{}: {argument} wrote", case.name);
                checked += 1;
            }
        }
        if let Some(argument) = case.index {
            let mut bad = good.clone();
            let count = match argument {
                "joint" => {
                    bad.joint = model.njoints();
                    model.njoints()
                }
                "frame" => {
                    bad.frame = model.frames.len() + 3;
                    model.frames.len()
                }
                _ => {
                    bad.contacts[1].frame = model.frames.len();
                    model.frames.len()
                }
            };
            let index = match argument {
                "joint" => bad.joint,
                "frame" => bad.frame,
                _ => bad.contacts[1].frame,
            };
            let before = snapshot(&data);
            let e = (case.call)(&model, &mut data, &bad).unwrap_err();
            assert_eq!(
                e,
                InputError::Index {
                    argument,
                    index,
                    count
                },
                "{}",
                case.name
            );
            assert!(snapshot(&data) == before, "{}: {argument} wrote", case.name);
            checked += 1;
        }
    }
    // Every slice argument of every entry point above, twice or three times.
    assert!(checked > 150, "{checked} cases");
}

#[test]
fn a_data_for_another_model_is_an_error_and_is_left_untouched() {
    let model = model();
    // Same sizes as `model` but a heavier body: only the fingerprint differs.
    let text = std::fs::read_to_string(common::root().join("models/go2_z1.urdf")).unwrap();
    let other =
        Model::from_urdf_str(&text.replacen("<mass value=\"", "<mass value=\"1", 1), true).unwrap();
    assert_eq!((other.nq, other.nv), (model.nq, model.nv));
    let fixed_base = load_model("models/go2_z1.urdf", false);
    let args = Args::new(&model);
    for built_for in [&other, &fixed_base] {
        let mut data = Data::new(built_for);
        let mismatch = data.check(&model).unwrap_err();
        for case in cases().into_iter().filter(|c| c.takes_data) {
            let before = snapshot(&data);
            let e = (case.call)(&model, &mut data, &args).unwrap_err();
            assert_eq!(e, InputError::Data(mismatch.clone()), "{}", case.name);
            assert!(snapshot(&data) == before, "{} wrote", case.name);
        }
    }
}

#[test]
fn quaternion_from_slice_checks_its_length() {
    let q = [0.0, 0.0, 0.6, 0.8];
    assert_eq!(
        Quaternion::from_slice(&q).unwrap().to_array(),
        Quaternion::from_array(q).to_array()
    );
    for len in [0, 3, 5] {
        let x = vec![0.5; len];
        assert_eq!(
            Quaternion::from_slice(&x).unwrap_err(),
            InputError::Length {
                argument: "q",
                len,
                expected: 4
            }
        );
    }
}
