//! Generated functions (`robot_dynamics!`) against the generic runtime
//! (`rbdgen::runtime`), in ns per call, for Go2+Z1, Go2 and the G1 humanoid
//! (free-flyer roots) and the Z1 arm (fixed base).
//!
//! Go2+Z1, Z1 and G1 bench every function of the generator's table
//! (`rbdgen::symbolic::Function::ALL`, checked when the bench starts); Go2 the
//! functions that Pinocchio's published figures cover.
//!
//! Method, as the Pinocchio harness of `benches/pinocchio/`: one `Data` reused,
//! 100 random states cycled, `q = integrate(neutral, U[-1,1]^nv)`, `v`, `a`,
//! `tau` in U[-1,1]^nv; the second configuration `q2` (of `difference`,
//! `d_difference_*`) drawn as `q`; `fext`: one wrench in U[-1,1]^6 per joint
//! (the universe's zero); `u`: U[-1,1] per actuated dof and a step `h` of
//! [`STEP`] s for `step_linearization`; the target of `pose_error`: the
//! bench frame's placement at `q2`. Per-frame functions use the link frame at
//! the end of the longest joint chain ([`deepest_link_frame`]). Before timing,
//! each generated function is checked against the runtime on all 100 states,
//! so a bench never times a wrong function (and `cargo test --benches` runs
//! the checks).
//!
//! Results land in `<target dir>/criterion/<robot>/<function>/{generated,runtime}/`;
//! `scripts/bench` runs this (built with `-C target-cpu=native`, as the
//! Pinocchio harness is with `-march=native`) together with Pinocchio and
//! prints the table. Adding a function is one line in [`bench!`] (and its name
//! in the lists of [`benches`]).

#[path = "../runtime/tests/common/mod.rs"]
mod common;

use std::collections::BTreeSet;
use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkGroup, BenchmarkId, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rbdgen::runtime::{
    aba, aba_derivatives, aba_derivatives_fext, aba_dfext, aba_fext, actuated_dofs, ccrba,
    center_of_mass, center_of_pressure, centroidal_momentum_rate, compute_joint_jacobians,
    compute_joint_jacobians_time_variation, contact_drift, contact_dynamics,
    contact_inverse_dynamics, contact_jacobian, crba, d_difference, d_integrate, dccrba,
    difference, forward_kinematics, frame_acceleration_drift, frame_jacobian,
    frame_jacobian_time_variation, frame_placement, generalized_gravity, integrate,
    jacobian_center_of_mass, joint_torque_regressor, kinetic_energy, minverse, nonlinear_effects,
    pose_error, potential_energy, rnea, rnea_derivatives, rnea_derivatives_fext, rnea_fext,
    step_linearization, AccelerationDrift, ArgumentPosition, ContactKind, Data, Force, Jacobians,
    Model, ReferenceFrame, Transform, Vector3,
};
use rbdgen::symbolic::Function;

// Go2+Z1, Z1 and G1: every function of the table, the per-frame ones for the
// bench frame only ([`deepest_link_frame`]), the contact functions for the
// feet (point contacts of Go2+Z1, 6-D soles of G1) or the gripper (Z1).
rbdgen::robot_dynamics!(
    mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    contacts = [FL_foot: point, FR_foot: point, RL_foot: point, RR_foot: point],
    frames = [link06]
);
rbdgen::robot_dynamics!(mod z1, "models/z1.urdf", contacts = [gripperMover: 6d], frames = [gripperMover]);
// Go2: the functions that Pinocchio's published figures cover.
rbdgen::robot_dynamics!(
    mod go2,
    "models/go2.urdf",
    floating_base,
    functions = [
        rnea, crba, aba, frame_placement, nonlinear_effects, generalized_gravity, minverse,
        center_of_mass, jacobian_center_of_mass, ccrba, kinetic_energy, rnea_derivatives,
        aba_derivatives
    ]
);
rbdgen::robot_dynamics!(
    mod g1,
    "models/g1_29dof.urdf",
    floating_base,
    contacts = [left_ankle_roll_link: 6d, right_ankle_roll_link: 6d],
    frames = [left_wrist_yaw_link]
);

/// The contact sets of the modules above, for the runtime.
const GO2_Z1_FEET: &[(&str, ContactKind)] = &[
    ("FL_foot", ContactKind::Point),
    ("FR_foot", ContactKind::Point),
    ("RL_foot", ContactKind::Point),
    ("RR_foot", ContactKind::Point),
];
const Z1_GRIPPER: &[(&str, ContactKind)] = &[("gripperMover", ContactKind::Frame6d)];
const G1_SOLES: &[(&str, ContactKind)] = &[
    ("left_ankle_roll_link", ContactKind::Frame6d),
    ("right_ankle_roll_link", ContactKind::Frame6d),
];

/// Number of random states cycled through, as in the Pinocchio harness.
const STATES: usize = 100;

/// The time step `h` of `step_linearization` (s).
const STEP: f64 = 0.01;

/// Relative agreement required between generated code and the runtime
/// (`|generated - runtime| <= TOLERANCE * max(1, max|runtime|)`).
const TOLERANCE: f64 = 1e-10;

/// One random state, in the generated module's array types (`NQ`, `NV`,
/// `NJOINTS`, `NU`) and, where the runtime takes other types, in those too.
struct State<const NQ: usize, const NV: usize, const NJ: usize, const NU: usize> {
    /// Configuration.
    q: [f64; NQ],
    /// A second configuration (`difference(q, q2)`; `pose_error`'s target is the frame there).
    q2: [f64; NQ],
    v: [f64; NV],
    a: [f64; NV],
    tau: [f64; NV],
    /// Torques of the actuated dofs (`step_linearization`).
    u: [f64; NU],
    /// One wrench `[linear; angular]` per joint id, the universe's zero.
    fext: [[f64; 6]; NJ],
    /// `fext` as the runtime takes it.
    forces: Vec<Force<f64>>,
    /// `pose_error`'s target as a 4 x 4 homogeneous matrix (generated code).
    target: [[f64; 4]; 4],
    /// The same target as the runtime takes it.
    target_placement: Transform<f64>,
    /// Contact forces `[nc]` in U[-1,1], vertical ones (point) offset by 50 N.
    lambda: Vec<f64>,
}

/// `integrate(neutral, U[-1,1]^nv)`, as the Pinocchio harness draws `q`.
fn random_q<const NQ: usize>(model: &Model, rng: &mut impl Rng) -> [f64; NQ] {
    let step: Vec<f64> = (0..model.nv).map(|_| rng.gen_range(-1.0..1.0)).collect();
    integrate(model, &model.neutral(), &step)
        .try_into()
        .expect("generated NQ is the model's nq")
}

/// The bench's states; `frame`: the frame whose placement at `q2` is the target.
fn random_states<const NQ: usize, const NV: usize, const NJ: usize, const NU: usize>(
    model: &Model,
    frame: usize,
) -> Vec<State<NQ, NV, NJ, NU>> {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut data = Data::new(model);
    (0..STATES)
        .map(|_| {
            let q = random_q(model, &mut rng);
            let q2 = random_q(model, &mut rng);
            let v = std::array::from_fn(|_| rng.gen_range(-1.0..1.0));
            let a = std::array::from_fn(|_| rng.gen_range(-1.0..1.0));
            let tau = std::array::from_fn(|_| rng.gen_range(-1.0..1.0));
            let u = std::array::from_fn(|_| rng.gen_range(-1.0..1.0));
            let fext: [[f64; 6]; NJ] = std::array::from_fn(|i| {
                std::array::from_fn(|_| {
                    if i == 0 {
                        0.0
                    } else {
                        rng.gen_range(-1.0..1.0)
                    }
                })
            });
            forward_kinematics(model, &mut data, &q2);
            let target_placement = frame_placement(model, &data, frame);
            let lambda = (0..model.nc())
                .map(|r| rng.gen_range(-1.0..1.0) + if r % 3 == 2 { 50.0 } else { 0.0 })
                .collect();
            State {
                q,
                q2,
                v,
                a,
                tau,
                u,
                forces: fext.iter().map(|f| Force::from_slice(f)).collect(),
                fext,
                target: target_placement.to_homogeneous(),
                target_placement,
                lambda,
            }
        })
        .collect()
}

/// A result flattened row-major, to compare generated code with the runtime.
trait Flat {
    fn flat(&self) -> Vec<f64>;
}

impl Flat for f64 {
    fn flat(&self) -> Vec<f64> {
        vec![*self]
    }
}

impl Flat for [f64] {
    fn flat(&self) -> Vec<f64> {
        self.to_vec()
    }
}

impl Flat for Vec<f64> {
    fn flat(&self) -> Vec<f64> {
        self.clone()
    }
}

impl<const N: usize> Flat for [f64; N] {
    fn flat(&self) -> Vec<f64> {
        self.to_vec()
    }
}

impl<const R: usize, const C: usize> Flat for [[f64; C]; R] {
    fn flat(&self) -> Vec<f64> {
        self.as_flattened().to_vec()
    }
}

impl Flat for Transform<f64> {
    fn flat(&self) -> Vec<f64> {
        self.to_homogeneous().flat()
    }
}

impl Flat for Vector3<f64> {
    fn flat(&self) -> Vec<f64> {
        self.0.to_vec()
    }
}

impl Flat for Force<f64> {
    fn flat(&self) -> Vec<f64> {
        self.to_array().to_vec()
    }
}

impl<T: Flat + ?Sized> Flat for &T {
    fn flat(&self) -> Vec<f64> {
        (**self).flat()
    }
}

impl Flat for Jacobians {
    fn flat(&self) -> Vec<f64> {
        [&self.d_dq[..], &self.d_dv, &self.d_du].concat()
    }
}

impl Flat for AccelerationDrift<f64> {
    fn flat(&self) -> Vec<f64> {
        let parts = [
            self.local,
            self.local_world_aligned,
            self.classical_local_world_aligned,
        ];
        parts.iter().flat_map(|m| m.to_array()).collect()
    }
}

impl<A: Flat, B: Flat> Flat for (A, B) {
    fn flat(&self) -> Vec<f64> {
        [self.0.flat(), self.1.flat()].concat()
    }
}

impl<A: Flat, B: Flat, C: Flat> Flat for (A, B, C) {
    fn flat(&self) -> Vec<f64> {
        [self.0.flat(), self.1.flat(), self.2.flat()].concat()
    }
}

impl<A: Flat, B: Flat, C: Flat, D: Flat> Flat for (A, B, C, D) {
    fn flat(&self) -> Vec<f64> {
        [self.0.flat(), self.1.flat(), self.2.flat(), self.3.flat()].concat()
    }
}

/// The link frame at the end of the longest joint chain (the first in model
/// order among ties): the frame whose placement costs the most.
fn deepest_link_frame(model: &Model) -> usize {
    let depth = |mut joint: usize| {
        let mut n = 0;
        while joint != 0 {
            joint = model.joints[joint].parent;
            n += 1;
        }
        n
    };
    let mut best = model
        .body_frames()
        .next()
        .expect("a model has a root link")
        .0;
    for (id, frame) in model.body_frames() {
        if depth(frame.parent_joint) > depth(model.frames[best].parent_joint) {
            best = id;
        }
    }
    eprintln!(
        "{}: per-frame functions on {}",
        model.name, model.frames[best].name
    );
    best
}

/// One robot's benchmark group: its model, a reused `Data`, the states.
struct Robot<'c, const NQ: usize, const NV: usize, const NJ: usize, const NU: usize> {
    name: &'static str,
    model: Model,
    data: Data<f64>,
    /// The frame of the per-frame functions ([`deepest_link_frame`]).
    frame_id: usize,
    states: Vec<State<NQ, NV, NJ, NU>>,
    /// The names of the functions benched so far.
    benched: BTreeSet<&'static str>,
    group: BenchmarkGroup<'c, criterion::measurement::WallTime>,
}

impl<'c, const NQ: usize, const NV: usize, const NJ: usize, const NU: usize>
    Robot<'c, NQ, NV, NJ, NU>
{
    fn new(
        c: &'c mut Criterion,
        name: &'static str,
        urdf: &str,
        floating_base: bool,
        contacts: &[(&str, ContactKind)],
    ) -> Self {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(urdf);
        let mut model = Model::from_urdf_file(&path, floating_base)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        model.set_contacts(contacts).expect("the bench's contacts");
        let dims = (
            model.nq,
            model.nv,
            model.njoints(),
            actuated_dofs(&model).len(),
        );
        assert_eq!(dims, (NQ, NV, NJ, NU), "{name}: nq, nv, njoints, nu");
        let mut group = c.benchmark_group(name);
        group
            .sample_size(30)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_millis(1500));
        let frame_id = deepest_link_frame(&model);
        Self {
            name,
            data: Data::new(&model),
            states: random_states(&model, frame_id),
            frame_id,
            model,
            benched: BTreeSet::new(),
            group,
        }
    }

    /// Checks that every function of the table but `without` was benched, and
    /// finishes the group.
    fn finish(self, without: &[Function]) {
        let want: BTreeSet<&str> = Function::ALL
            .into_iter()
            .filter(|f| !without.contains(f))
            .map(Function::name)
            .collect();
        let missing: Vec<_> = want.difference(&self.benched).collect();
        assert!(
            missing.is_empty(),
            "{}: not benched: {missing:?}",
            self.name
        );
        self.group.finish();
    }
}

/// Benchmarks one function of a robot: checks the generated call against the
/// runtime call on every state, then times both, cycling the states.
/// `|s| generated` and `|m, d, s| runtime` name the state, model and data;
macro_rules! function {
    ($robot:ident, $name:literal, |$s:ident| $generated:expr, |$m:ident, $d:ident, $s2:ident| $runtime:expr) => {
        function! { $robot.data, $name, |$s| $generated, |$m, $d, $s2| $runtime }
    };
    ($robot:ident . $data:ident, $name:literal, |$s:ident| $generated:expr, |$m:ident, $d:ident, $s2:ident| $runtime:expr) => {{
        let robot = &mut $robot;
        robot.benched.insert($name);
        for (k, $s) in robot.states.iter().enumerate() {
            let generated = $generated.flat();
            let ($m, $d, $s2) = (&robot.model, &mut robot.$data, $s);
            let runtime = $runtime.flat();
            let what = format!("{} {}, state {k}", robot.name, $name);
            common::assert_close(&what, &generated, &runtime, TOLERANCE);
        }
        let states = &robot.states;
        robot
            .group
            .bench_function(BenchmarkId::new($name, "generated"), |b| {
                let mut k = 0;
                b.iter(|| {
                    let $s = black_box(&states[k % STATES]);
                    k += 1;
                    black_box($generated)
                })
            });
        let (model, data) = (&robot.model, &mut robot.$data);
        robot
            .group
            .bench_function(BenchmarkId::new($name, "runtime"), |b| {
                let mut k = 0;
                b.iter(|| {
                    let ($m, $d, $s2) = (model, &mut *data, black_box(&states[k % STATES]));
                    k += 1;
                    black_box($runtime);
                })
            });
    }};
}

/// Benchmarks the listed functions of the generated module `$g` on `$robot`,
/// one line per function: the generated call and the runtime call computing
/// the same thing. `$frame` (a `$g::Frame`) and `$frame_id` (its runtime
/// index) are the frame of the per-frame functions.
macro_rules! bench {
    ($robot:ident, $g:ident, $frame:ident, $frame_id:ident, [$($f:ident),* $(,)?]) => {
        $(bench!(@ $robot, $g, $frame, $frame_id, $f);)*
    };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, rnea) => { function! { $r, "rnea", |s| $g::rnea(&s.q, &s.v, &s.a), |m, d, s| rnea(m, d, &s.q, &s.v, &s.a) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, crba) => { function! { $r, "crba", |s| $g::crba(&s.q), |m, d, s| crba(m, d, &s.q) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, aba) => { function! { $r, "aba", |s| $g::aba(&s.q, &s.v, &s.tau), |m, d, s| aba(m, d, &s.q, &s.v, &s.tau) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, frame_placement) => { function! { $r, "frame_placement", |s| $g::frame_placement(&s.q, $fr), |m, d, s| { forward_kinematics(m, d, &s.q); frame_placement(m, d, $id) } } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, nonlinear_effects) => { function! { $r, "nonlinear_effects", |s| $g::nonlinear_effects(&s.q, &s.v), |m, d, s| nonlinear_effects(m, d, &s.q, &s.v) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, generalized_gravity) => { function! { $r, "generalized_gravity", |s| $g::generalized_gravity(&s.q), |m, d, s| generalized_gravity(m, d, &s.q) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, minverse) => { function! { $r, "minverse", |s| $g::minverse(&s.q), |m, d, s| minverse(m, d, &s.q) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, center_of_mass) => { function! { $r, "center_of_mass", |s| $g::center_of_mass(&s.q), |m, d, s| center_of_mass(m, d, &s.q) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, jacobian_center_of_mass) => { function! { $r, "jacobian_center_of_mass", |s| $g::jacobian_center_of_mass(&s.q), |m, d, s| jacobian_center_of_mass(m, d, &s.q) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, ccrba) => { function! { $r, "ccrba", |s| $g::ccrba(&s.q, &s.v), |m, d, s| ccrba(m, d, &s.q, &s.v) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, dccrba) => { function! { $r, "dccrba", |s| $g::dccrba(&s.q, &s.v), |m, d, s| dccrba(m, d, &s.q, &s.v) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, kinetic_energy) => { function! { $r, "kinetic_energy", |s| $g::kinetic_energy(&s.q, &s.v), |m, d, s| kinetic_energy(m, d, &s.q, &s.v) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, potential_energy) => { function! { $r, "potential_energy", |s| $g::potential_energy(&s.q), |m, d, s| potential_energy(m, d, &s.q) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, frame_jacobian_local) => { function! { $r, "frame_jacobian_local", |s| $g::frame_jacobian_local(&s.q, $fr), |m, d, s| { compute_joint_jacobians(m, d, &s.q); frame_jacobian(m, d, $id, ReferenceFrame::Local) } } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, frame_jacobian_world) => { function! { $r, "frame_jacobian_world", |s| $g::frame_jacobian_world(&s.q, $fr), |m, d, s| { compute_joint_jacobians(m, d, &s.q); frame_jacobian(m, d, $id, ReferenceFrame::World) } } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, frame_jacobian_local_world_aligned) => { function! { $r, "frame_jacobian_local_world_aligned", |s| $g::frame_jacobian_local_world_aligned(&s.q, $fr), |m, d, s| { compute_joint_jacobians(m, d, &s.q); frame_jacobian(m, d, $id, ReferenceFrame::LocalWorldAligned) } } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, rnea_fext) => { function! { $r, "rnea_fext", |s| $g::rnea_fext(&s.q, &s.v, &s.a, &s.fext), |m, d, s| rnea_fext(m, d, &s.q, &s.v, &s.a, &s.forces) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, rnea_derivatives) => { function! { $r, "rnea_derivatives", |s| $g::rnea_derivatives(&s.q, &s.v, &s.a), |m, d, s| rnea_derivatives(m, d, &s.q, &s.v, &s.a) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, aba_derivatives) => { function! { $r, "aba_derivatives", |s| $g::aba_derivatives(&s.q, &s.v, &s.tau), |m, d, s| aba_derivatives(m, d, &s.q, &s.v, &s.tau) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, rnea_derivatives_fext) => { function! { $r, "rnea_derivatives_fext", |s| $g::rnea_derivatives_fext(&s.q, &s.v, &s.a, &s.fext), |m, d, s| rnea_derivatives_fext(m, d, &s.q, &s.v, &s.a, &s.forces) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, step_linearization) => { function! { $r, "step_linearization", |s| $g::step_linearization(&s.q, &s.v, &s.u, STEP), |m, d, s| step_linearization(m, d, &s.q, &s.v, &s.u, STEP) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, pose_error) => { function! { $r, "pose_error", |s| $g::pose_error(&s.q, &s.target, $fr), |m, d, s| pose_error(m, d, &s.q, $id, &s.target_placement) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, integrate) => { function! { $r, "integrate", |s| $g::integrate(&s.q, &s.v), |m, _d, s| integrate(m, &s.q, &s.v) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, difference) => { function! { $r, "difference", |s| $g::difference(&s.q, &s.q2), |m, _d, s| difference(m, &s.q, &s.q2) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, d_integrate_dq) => { function! { $r, "d_integrate_dq", |s| $g::d_integrate_dq(&s.q, &s.v), |m, _d, s| d_integrate(m, &s.q, &s.v, ArgumentPosition::Arg0) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, d_integrate_dv) => { function! { $r, "d_integrate_dv", |s| $g::d_integrate_dv(&s.q, &s.v), |m, _d, s| d_integrate(m, &s.q, &s.v, ArgumentPosition::Arg1) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, d_difference_dq0) => { function! { $r, "d_difference_dq0", |s| $g::d_difference_dq0(&s.q, &s.q2), |m, _d, s| d_difference(m, &s.q, &s.q2, ArgumentPosition::Arg0) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, d_difference_dq1) => { function! { $r, "d_difference_dq1", |s| $g::d_difference_dq1(&s.q, &s.q2), |m, _d, s| d_difference(m, &s.q, &s.q2, ArgumentPosition::Arg1) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, aba_fext) => { function! { $r, "aba_fext", |s| $g::aba_fext(&s.q, &s.v, &s.tau, &s.fext), |m, d, s| aba_fext(m, d, &s.q, &s.v, &s.tau, &s.forces) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, aba_derivatives_fext) => { function! { $r, "aba_derivatives_fext", |s| $g::aba_derivatives_fext(&s.q, &s.v, &s.tau, &s.fext), |m, d, s| aba_derivatives_fext(m, d, &s.q, &s.v, &s.tau, &s.forces) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, aba_dfext) => { function! { $r, "aba_dfext", |s| $g::aba_dfext(&s.q), |m, d, s| aba_dfext(m, d, &s.q) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, frame_jacobian_time_variation_local) => { function! { $r, "frame_jacobian_time_variation_local", |s| $g::frame_jacobian_time_variation_local(&s.q, &s.v, $fr), |m, d, s| { compute_joint_jacobians_time_variation(m, d, &s.q, &s.v); frame_jacobian_time_variation(m, d, $id, ReferenceFrame::Local) } } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, frame_jacobian_time_variation_world) => { function! { $r, "frame_jacobian_time_variation_world", |s| $g::frame_jacobian_time_variation_world(&s.q, &s.v, $fr), |m, d, s| { compute_joint_jacobians_time_variation(m, d, &s.q, &s.v); frame_jacobian_time_variation(m, d, $id, ReferenceFrame::World) } } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, frame_jacobian_time_variation_local_world_aligned) => { function! { $r, "frame_jacobian_time_variation_local_world_aligned", |s| $g::frame_jacobian_time_variation_local_world_aligned(&s.q, &s.v, $fr), |m, d, s| { compute_joint_jacobians_time_variation(m, d, &s.q, &s.v); frame_jacobian_time_variation(m, d, $id, ReferenceFrame::LocalWorldAligned) } } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, frame_acceleration_drift) => { function! { $r, "frame_acceleration_drift", |s| $g::frame_acceleration_drift(&s.q, &s.v, $fr), |m, d, s| frame_acceleration_drift(m, d, &s.q, &s.v, $id) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, centroidal_momentum_rate) => { function! { $r, "centroidal_momentum_rate", |s| $g::centroidal_momentum_rate(&s.q, &s.v, &s.a), |m, d, s| centroidal_momentum_rate(m, d, &s.q, &s.v, &s.a) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, joint_torque_regressor) => { function! { $r, "joint_torque_regressor", |s| $g::joint_torque_regressor(&s.q, &s.v, &s.a), |m, d, s| joint_torque_regressor(m, d, &s.q, &s.v, &s.a) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, contact_jacobian) => { function! { $r, "contact_jacobian", |s| $g::contact_jacobian(&s.q), |m, d, s| contact_jacobian(m, d, &s.q, &m.contacts) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, contact_drift) => { function! { $r, "contact_drift", |s| $g::contact_drift(&s.q, &s.v), |m, d, s| contact_drift(m, d, &s.q, &s.v, &m.contacts) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, contact_dynamics) => { function! { $r, "contact_dynamics", |s| $g::contact_dynamics(&s.q, &s.v, &s.tau, 0.0), |m, d, s| contact_dynamics(m, d, &s.q, &s.v, &s.tau, &m.contacts, 0.0) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, contact_inverse_dynamics) => { function! { $r, "contact_inverse_dynamics", |s| $g::contact_inverse_dynamics(&s.q, &s.v, &s.a, s.lambda.as_slice().try_into().unwrap()), |m, d, s| contact_inverse_dynamics(m, d, &s.q, &s.v, &s.a, &s.lambda, &m.contacts) } };
    (@ $r:ident, $g:ident, $fr:ident, $id:ident, center_of_pressure) => { function! { $r, "center_of_pressure", |s| $g::center_of_pressure(&s.q, s.lambda.as_slice().try_into().unwrap(), 0.0), |m, d, s| center_of_pressure(m, d, &s.q, &m.contacts, &s.lambda, 0.0) } };
}

/// One robot: the generated module `$g` of `$urdf` (`$floating`: free-flyer
/// root) and the functions to bench; finishes with the check that every
/// function of the table but `$without` was benched.
macro_rules! bench_robot {
    ($c:expr, $g:ident, $urdf:literal, $floating:literal, $contacts:expr, [$($f:ident),* $(,)?], without $without:expr) => {{
        let mut robot = Robot::<{ $g::NQ }, { $g::NV }, { $g::NJOINTS }, { $g::NU }>::new(
            $c,
            stringify!($g),
            $urdf,
            $floating,
            $contacts,
        );
        let frame_id = robot.frame_id;
        let name = &robot.model.frames[frame_id].name;
        let frame = $g::Frame::ALL.into_iter().find(|f| f.name() == name).unwrap();
        bench!(robot, $g, frame, frame_id, [$($f),*]);
        robot.finish(&$without);
    }};
}

/// [`bench_robot!`] with every function of the table.
macro_rules! bench_every_function {
    ($c:ident, $g:ident, $urdf:literal, $floating:expr, $contacts:expr) => {
        bench_robot!($c, $g, $urdf, $floating, $contacts, [
        rnea, crba, aba, frame_placement, nonlinear_effects, generalized_gravity, minverse,
        center_of_mass, jacobian_center_of_mass, ccrba, dccrba, kinetic_energy, potential_energy,
        frame_jacobian_local, frame_jacobian_world, frame_jacobian_local_world_aligned, rnea_fext,
        rnea_derivatives, aba_derivatives, rnea_derivatives_fext, step_linearization, pose_error,
        integrate, difference, d_integrate_dq, d_integrate_dv, d_difference_dq0, d_difference_dq1,
        aba_fext, aba_derivatives_fext, aba_dfext, frame_jacobian_time_variation_local,
        frame_jacobian_time_variation_world, frame_jacobian_time_variation_local_world_aligned,
        frame_acceleration_drift, centroidal_momentum_rate, joint_torque_regressor,
        contact_jacobian, contact_drift, contact_dynamics, contact_inverse_dynamics,
        center_of_pressure,
        ], without [])
    };
}

/// The benches, one group per robot (criterion's id `<robot>/<function>/<generated|runtime>`).
fn benches(c: &mut Criterion) {
    bench_every_function!(c, go2_z1, "models/go2_z1.urdf", true, GO2_Z1_FEET);
    bench_robot!(c, go2, "models/go2.urdf", true, &[], [
        rnea, crba, aba, frame_placement, nonlinear_effects, generalized_gravity, minverse,
        center_of_mass, jacobian_center_of_mass, ccrba, kinetic_energy, rnea_derivatives,
        aba_derivatives,
    ], without Function::ALL);
    bench_every_function!(c, z1, "models/z1.urdf", false, Z1_GRIPPER);
    bench_every_function!(c, g1, "models/g1_29dof.urdf", true, G1_SOLES);
}

/// Runs the benches with criterion's command line (`cargo bench --bench dynamics -- FILTER`).
fn main() {
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    c.final_summary();
}
