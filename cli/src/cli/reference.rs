//! Reference values of the generated functions, computed in-process: the
//! generic runtime for the functions it has an entry point for, otherwise the
//! traced graph of the runtime's algorithm, interpreted.

use rbdgen_runtime::{
    aba, aba_derivatives, aba_derivatives_fext, aba_dfext, aba_fext, ccrba, center_of_mass,
    center_of_pressure, centroidal_momentum_rate, compute_joint_jacobians,
    compute_joint_jacobians_time_variation, contact_drift, contact_dynamics,
    contact_inverse_dynamics, contact_jacobian, crba, dccrba, forward_kinematics,
    frame_acceleration_drift, frame_jacobian, frame_jacobian_time_variation, frame_placement,
    generalized_gravity, jacobian_center_of_mass, joint_torque_regressor, kinetic_energy, minverse,
    nonlinear_effects, potential_energy, rnea, rnea_derivatives, rnea_derivatives_fext, rnea_fext,
    set_link_parameters, Force, ReferenceFrame,
};
use rbdgen_runtime::{Data, Model};
use rbdgen_symbolic::{trace, Expr, Function};

/// What computed a reference value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The runtime's `f64` entry point (the one timed against the generated code).
    Runtime,
    /// The trace of the runtime's algorithm, interpreted node by node
    /// ([`rbdgen_symbolic::Graph::eval`]): for functions that have no runtime
    /// entry point here.
    TracedGraph,
}

/// A flat `[6 * njoints]` argument as one wrench per joint id.
fn wrenches(x: &[f64]) -> Vec<Force<f64>> {
    x.chunks(6).map(Force::from_slice).collect()
}

/// The runtime's value of `function` at `args` (each `[len]` as in
/// [`Function::args`], so with the run-time inertial parameters `pi` last when
/// the model has them) for the model frame `frame` of a per-frame function,
/// written to `out` (flattened row-major); `false` when the runtime has no
/// entry point wired here for `function`.
pub fn runtime_call(
    function: Function,
    model: &Model,
    data: &mut Data<f64>,
    args: &[&[f64]],
    frame: Option<usize>,
    out: &mut Vec<f64>,
) -> bool {
    out.clear();
    let n = function.spec().args.len();
    if args.len() > n {
        set_link_parameters(model, data, args[n]);
    }
    let three = |j: rbdgen_runtime::Jacobians<f64>| [j.d_dq, j.d_dv, j.d_du].concat();
    let contacts = &model.contacts;
    #[allow(unreachable_patterns)]
    match (function, frame) {
        (Function::Rnea, _) => out.extend_from_slice(rnea(model, data, args[0], args[1], args[2])),
        (Function::Crba, _) => out.extend_from_slice(crba(model, data, args[0])),
        (Function::Aba, _) => out.extend_from_slice(aba(model, data, args[0], args[1], args[2])),
        (Function::Minverse, _) => out.extend_from_slice(minverse(model, data, args[0])),
        (Function::NonlinearEffects, _) => {
            out.extend_from_slice(nonlinear_effects(model, data, args[0], args[1]))
        }
        (Function::GeneralizedGravity, _) => {
            out.extend_from_slice(generalized_gravity(model, data, args[0]))
        }
        (Function::CenterOfMass, _) => out.extend(center_of_mass(model, data, args[0]).0),
        (Function::JacobianCenterOfMass, _) => {
            out.extend_from_slice(jacobian_center_of_mass(model, data, args[0]))
        }
        (Function::Ccrba, _) => {
            let (ag, hg) = ccrba(model, data, args[0], args[1]);
            out.extend_from_slice(ag);
            out.extend(hg.to_array());
        }
        (Function::Dccrba, _) => out.extend_from_slice(dccrba(model, data, args[0], args[1])),
        (Function::KineticEnergy, _) => out.push(kinetic_energy(model, data, args[0], args[1])),
        (Function::PotentialEnergy, _) => out.push(potential_energy(model, data, args[0])),
        (Function::RneaFext, _) => out.extend_from_slice(rnea_fext(
            model,
            data,
            args[0],
            args[1],
            args[2],
            &wrenches(args[3]),
        )),
        (Function::RneaDerivatives, _) => out.extend(three(rnea_derivatives(
            model, data, args[0], args[1], args[2],
        ))),
        (Function::AbaDerivatives, _) => out.extend(three(aba_derivatives(
            model, data, args[0], args[1], args[2],
        ))),
        (Function::RneaDerivativesFext, _) => out.extend(three(rnea_derivatives_fext(
            model,
            data,
            args[0],
            args[1],
            args[2],
            &wrenches(args[3]),
        ))),
        (Function::AbaFext, _) => out.extend_from_slice(aba_fext(
            model,
            data,
            args[0],
            args[1],
            args[2],
            &wrenches(args[3]),
        )),
        (Function::AbaDerivativesFext, _) => out.extend(three(aba_derivatives_fext(
            model,
            data,
            args[0],
            args[1],
            args[2],
            &wrenches(args[3]),
        ))),
        (Function::AbaDfext, _) => out.extend(aba_dfext(model, data, args[0])),
        (Function::FramePlacement, Some(frame)) => {
            forward_kinematics(model, data, args[0]);
            let placement = frame_placement(model, data, frame).to_homogeneous();
            out.extend(placement.iter().flatten());
        }
        (
            Function::FrameJacobianLocal
            | Function::FrameJacobianWorld
            | Function::FrameJacobianLocalWorldAligned,
            Some(frame),
        ) => {
            compute_joint_jacobians(model, data, args[0]);
            out.extend(frame_jacobian(model, data, frame, reference_of(function)));
        }
        (
            Function::FrameJacobianTimeVariationLocal
            | Function::FrameJacobianTimeVariationWorld
            | Function::FrameJacobianTimeVariationLocalWorldAligned,
            Some(frame),
        ) => {
            compute_joint_jacobians_time_variation(model, data, args[0], args[1]);
            out.extend(frame_jacobian_time_variation(
                model,
                data,
                frame,
                reference_of(function),
            ));
        }
        (Function::FrameAccelerationDrift, Some(frame)) => {
            let a = frame_acceleration_drift(model, data, args[0], args[1], frame);
            for m in [
                a.local,
                a.local_world_aligned,
                a.classical_local_world_aligned,
            ] {
                out.extend(m.to_array());
            }
        }
        (Function::CentroidalMomentumRate, _) => {
            out.extend(centroidal_momentum_rate(model, data, args[0], args[1], args[2]).to_array())
        }
        (Function::JointTorqueRegressor, _) => out.extend(joint_torque_regressor(
            model, data, args[0], args[1], args[2],
        )),
        (Function::ContactJacobian, _) => {
            out.extend(contact_jacobian(model, data, args[0], contacts))
        }
        (Function::ContactDrift, _) => {
            out.extend(contact_drift(model, data, args[0], args[1], contacts))
        }
        (Function::ContactDynamics, _) => {
            let (a, lambda) =
                contact_dynamics(model, data, args[0], args[1], args[2], contacts, args[3][0]);
            out.extend(a);
            out.extend(lambda);
        }
        (Function::ContactInverseDynamics, _) => out.extend(contact_inverse_dynamics(
            model, data, args[0], args[1], args[2], args[3], contacts,
        )),
        (Function::CenterOfPressure, _) => out.extend(center_of_pressure(
            model, data, args[0], contacts, args[1], args[2][0],
        )),
        _ => return false,
    }
    true
}

/// The reference frame of a per-frame Jacobian function.
fn reference_of(function: Function) -> ReferenceFrame {
    match function {
        Function::FrameJacobianWorld | Function::FrameJacobianTimeVariationWorld => {
            ReferenceFrame::World
        }
        Function::FrameJacobianLocalWorldAligned
        | Function::FrameJacobianTimeVariationLocalWorldAligned => {
            ReferenceFrame::LocalWorldAligned
        }
        _ => ReferenceFrame::Local,
    }
}

/// The reference value of `function` at `args` for `frame`, and what computed it.
pub fn evaluate(
    function: Function,
    model: &Model,
    data: &mut Data<f64>,
    args: &[&[f64]],
    frame: Option<usize>,
) -> (Vec<f64>, Source) {
    let mut out = Vec::new();
    if runtime_call(function, model, data, args, frame, &mut out) {
        return (out, Source::Runtime);
    }
    let lens: Vec<usize> = args.iter().map(|a| a.len()).collect();
    let traced = trace(&lens, |x| {
        let mut data = Data::<Expr>::new(model);
        function.evaluate(model, &mut data, x, frame)
    });
    let inputs: Vec<f64> = args.concat();
    (
        traced.graph.eval(&inputs, &traced.outputs),
        Source::TracedGraph,
    )
}
