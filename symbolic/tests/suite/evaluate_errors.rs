//! `Function::evaluate` refuses arguments of the wrong length or count and a
//! `Data` of another model with an `InputError` naming the argument, for
//! every function of the table, and never panics on them.

use rbdgen_runtime::{ContactKind, Data, InputError, Model};
use rbdgen_symbolic::Function;

/// Go2+Z1 with a free-flyer, two contacts and the run-time parameters of one
/// link: every function of the table applies, `pi` included.
fn model() -> Model {
    let path = format!("{}/../models/go2_z1.urdf", env!("CARGO_MANIFEST_DIR"));
    let mut model = Model::from_urdf_file(&path, true).unwrap();
    model
        .set_contacts(&[
            ("FL_foot", ContactKind::Point),
            ("RR_foot", ContactKind::Frame6d),
        ])
        .unwrap();
    model.set_parameters(&["FL_foot"]).unwrap();
    model
}

/// Arguments of the right lengths: the neutral configuration for `q`-like
/// arguments, the identity placement for a target, small values elsewhere.
fn arguments(model: &Model, function: Function) -> Vec<Vec<f64>> {
    function
        .args(model)
        .iter()
        .map(|&(name, dim)| match name {
            "q" | "q0" | "q1" => model.neutral(),
            "target" => vec![
                1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0,
            ],
            "pi" => rbdgen_runtime::link_parameters(model),
            _ => vec![0.1; dim.len(model)],
        })
        .collect()
}

#[test]
fn every_function_names_the_argument_of_the_wrong_length() {
    let model = model();
    let frame = model.body_frames().map(|(id, _)| id).last();
    for function in Function::ALL {
        let frame = function.spec().per_frame.then_some(frame.unwrap());
        let good = arguments(&model, function);
        let mut data = Data::<f64>::new(&model);
        function
            .evaluate(&model, &mut data, &good, frame)
            .unwrap_or_else(|e| panic!("{}: {e}", function.name()));
        for (k, &(argument, dim)) in function.args(&model).iter().enumerate() {
            let expected = dim.len(&model);
            for len in [expected + 1, expected - 1] {
                let mut bad = good.clone();
                bad[k].resize(len, 0.5);
                let e = function
                    .evaluate(&model, &mut data, &bad, frame)
                    .unwrap_err();
                assert_eq!(
                    e,
                    InputError::Length {
                        argument,
                        len,
                        expected
                    },
                    "{}",
                    function.name()
                );
            }
        }
        let e = function
            .evaluate(&model, &mut data, &good[1..], frame)
            .unwrap_err();
        assert_eq!(
            e,
            InputError::Length {
                argument: "x",
                len: good.len() - 1,
                expected: good.len()
            }
        );
        let fixed = Model::from_urdf_file(
            format!("{}/../models/go2_z1.urdf", env!("CARGO_MANIFEST_DIR")),
            false,
        )
        .unwrap();
        let mut other = Data::<f64>::new(&fixed);
        let e = function
            .evaluate(&model, &mut other, &good, frame)
            .unwrap_err();
        assert_eq!(e, InputError::Data(other.check(&model).unwrap_err()));
    }
}
