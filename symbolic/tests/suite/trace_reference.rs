//! Every function of the table, traced and interpreted (no Rust emitted),
//! against Pinocchio's reference values on every reference file: the small
//! URDFs (continuous joints, massless links, welded links) as well as the real
//! robots, at the eval format's tolerance.

use crate::common;

use common::{assert_close, flat, Reference};
use rbdgen_runtime::{Data, Model};
use rbdgen_symbolic::{trace, Dim, Expr, Function};
use serde_json::Value;

/// The reference values of `function` in state `s` (for one link frame when
/// per-frame), flattened as the function's outputs; `None` for a function the
/// eval format has no key for (tested against its own reference files).
fn expected(function: Function, s: &Value, frame: Option<&str>) -> Option<Vec<f64>> {
    let key = match function {
        Function::Rnea => "rnea",
        Function::Crba => "crba",
        Function::Aba => "aba",
        Function::NonlinearEffects => "nle",
        Function::GeneralizedGravity => "gravity",
        Function::Minverse => "minv",
        Function::CenterOfMass => "com",
        Function::JacobianCenterOfMass => "jcom",
        Function::Ccrba => return Some([flat(&s["ag"]), flat(&s["hg"])].concat()),
        Function::Dccrba => "dag",
        Function::KineticEnergy => "kinetic_energy",
        Function::PotentialEnergy => "potential_energy",
        Function::RneaFext => "rnea_fext",
        Function::FramePlacement => "placement",
        Function::FrameJacobianLocal => "jacobian_local",
        Function::FrameJacobianWorld => "jacobian_world",
        Function::FrameJacobianLocalWorldAligned => "jacobian_local_world_aligned",
        Function::RneaDerivatives => {
            let d = &s["rnea_derivatives"];
            return Some(
                [
                    flat(&d["dtau_dq"]),
                    flat(&d["dtau_dv"]),
                    flat(&d["dtau_da"]),
                ]
                .concat(),
            );
        }
        Function::AbaDerivatives => {
            let d = &s["aba_derivatives"];
            return Some([flat(&d["ddq_dq"]), flat(&d["ddq_dv"]), flat(&d["ddq_dtau"])].concat());
        }
        Function::Integrate => "integrate",
        Function::Difference => "difference",
        Function::DIntegrateDq => return Some(flat(&s["dintegrate"]["d0"])),
        Function::DIntegrateDv => return Some(flat(&s["dintegrate"]["d1"])),
        Function::DDifferenceDq0 => return Some(flat(&s["ddifference"]["d0"])),
        Function::DDifferenceDq1 => return Some(flat(&s["ddifference"]["d1"])),
        // Not in these files: the whole-body and MPC quantities are checked
        // against tests/reference/wbc/ (runtime/tests/whole_body.rs, the
        // generated code in tests/generated_whole_body.rs) and central
        // differences (runtime/tests/mpc_derivatives.rs).
        Function::RneaDerivativesFext
        | Function::StepLinearization
        | Function::PoseError
        | Function::AbaFext
        | Function::AbaDerivativesFext
        | Function::AbaDfext
        | Function::FrameJacobianTimeVariationLocal
        | Function::FrameJacobianTimeVariationWorld
        | Function::FrameJacobianTimeVariationLocalWorldAligned
        | Function::FrameAccelerationDrift
        | Function::CentroidalMomentumRate
        | Function::JointTorqueRegressor
        | Function::ContactJacobian
        | Function::ContactDrift
        | Function::ContactDynamics
        | Function::ContactInverseDynamics
        | Function::CenterOfPressure
        | Function::FrameVelocityDerivativesLocal
        | Function::FrameVelocityDerivativesLocalWorldAligned
        | Function::FrameAccelerationDerivativesLocal
        | Function::FrameAccelerationDerivativesLocalWorldAligned
        | Function::CentroidalDynamicsDerivatives
        | Function::ContactDriftDerivatives
        | Function::ContactDynamicsDerivatives
        | Function::ContactInverseDynamicsDerivatives
        | Function::ImpulseDynamics
        | Function::ImpulseDynamicsDerivatives
        | Function::ContactStepLinearization
        | Function::ContactDynamicsMasked
        | Function::ContactDynamicsDerivativesMasked
        | Function::ImpulseDynamicsMasked
        | Function::ImpulseDynamicsDerivativesMasked
        | Function::ContactStepLinearizationMasked
        | Function::ContactStepLinearizationForcesMasked => return None,
    };
    Some(match frame {
        Some(name) => flat(&s["frames"][name][key]),
        None => flat(&s[key]),
    })
}

/// The function's arguments in state `s`, flattened in order.
fn inputs(function: Function, s: &Value) -> Vec<f64> {
    function
        .spec()
        .args
        .iter()
        .flat_map(|(name, dim)| match (function, *name, dim) {
            (_, _, Dim::Wrenches) => flat(&s["fext"]),
            // The reference's Lie-group inputs: integrate(q, w).unwrap(), difference(q, q2).unwrap().
            (Function::Integrate | Function::DIntegrateDq | Function::DIntegrateDv, "v", _) => {
                flat(&s["w"])
            }
            (_, "q0", _) => flat(&s["q"]),
            (_, "q1", _) => flat(&s["q2"]),
            _ => flat(&s[*name]),
        })
        .collect()
}

fn check(name: &str) {
    let r = Reference::load(name);
    let model: &Model = &r.model;
    for function in Function::ALL {
        let spec = function.spec();
        let lens: Vec<usize> = spec.args.iter().map(|(_, d)| d.len(model)).collect();
        let frames: Vec<(Option<usize>, Option<&str>)> = if spec.per_frame {
            model
                .body_frames()
                .map(|(id, f)| (Some(id), Some(f.name.as_str())))
                .collect()
        } else {
            vec![(None, None)]
        };
        // The `None` arm of `expected`: not in the eval format, checked elsewhere.
        let Some(&(_, first)) = frames.first() else {
            continue;
        };
        if expected(function, &r.states()[0], first).is_none() {
            continue;
        }
        for (id, frame) in frames {
            let traced = trace(&lens, |x| {
                let mut data = Data::<Expr>::new(model);
                function.evaluate(model, &mut data, x, id).unwrap()
            });
            assert!(traced.graph.non_finite().is_none(), "{name} {}", spec.name);
            assert_eq!(
                traced.outputs.len(),
                spec.output.len(model),
                "{name} {}",
                spec.name
            );
            for (k, s) in r.states().iter().enumerate() {
                let ours = traced.graph.eval(&inputs(function, s), &traced.outputs);
                let what = format!("{name} state {k} {} {}", spec.name, frame.unwrap_or(""));
                let want = expected(function, s, frame).expect("a key of the eval format");
                assert_close(&what, &ours, &want, 1e-8);
            }
        }
    }
}

#[test]
fn every_reference_file() {
    common::check_every_reference(check);
}
