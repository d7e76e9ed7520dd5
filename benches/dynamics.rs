//! Generated functions (`robot_dynamics!`) against the generic runtime
//! (`rbdgen::runtime`), in ns per call, for Go2+Z1, Go2 and the G1 humanoid
//! (free-flyer roots) and the Z1 arm (fixed base).
//!
//! Go2+Z1, Z1 and G1 bench every function of the generator's table
//! (`rbdgen::symbolic::Function::ALL`, checked when the bench starts); Go2 the
//! functions that Pinocchio's published figures cover.
//!
//! Method, as the Pinocchio harness of `benches/pinocchio/`: one `Data` reused,
//! 100 random states cycled, `q = integrate(neutral, U[-1,1]^nv).unwrap()`, `v`, `a`,
//! `tau` in U[-1,1]^nv; the second configuration `q2` (of `difference`,
//! `d_difference_*`) drawn as `q`; `fext`: one wrench in U[-1,1]^6 per joint
//! (the universe's zero); `u`: U[-1,1] per actuated dof and a step `h` of
//! [`STEP`] s for `step_linearization`; the target of `pose_error`: the
//! bench frame's placement at `q2`; `lambda`: U[-1,1] per contact row, the
//! vertical ones offset by 50 N; zero `damping` and `height`. Per-frame
//! functions use the link frame at the end of the longest joint chain
//! ([`deepest_link_frame`]). Before timing, each generated function is checked
//! against the runtime on all 100 states, so a bench never times a wrong
//! function (and `cargo test --benches` runs the checks).
//!
//! Both sides derive from the generator's table: the arguments are laid out
//! by `Function::args`, the runtime side is the table's generic evaluation on
//! `f64` (`Function::evaluate`, which returns a `Vec`: one allocation per call
//! that the bare runtime call does not pay), and the generated function is
//! called through [`Call`] on the same flat arguments.
//!
//! Results land in `<target dir>/criterion/<robot>/<function>/{generated,runtime}/`;
//! `scripts/bench` runs this (built with `-C target-cpu=native`, as the
//! Pinocchio harness is with `-march=native`) together with Pinocchio and
//! prints the table. A function of the table is benched once its name is in
//! `every_function!` (`benches/common/functions.rs`, which `tests/function_table.rs`
//! checks against the table).

#[path = "../runtime/tests/common/mod.rs"]
mod common;
#[macro_use]
#[path = "common/functions.rs"]
mod functions;

use std::collections::BTreeSet;
use std::hint::black_box;
use std::marker::PhantomData;
use std::time::Duration;

use criterion::{BenchmarkGroup, BenchmarkId, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rbdgen::runtime::{
    actuated_dofs, forward_kinematics, frame_placement, integrate, ContactKind, Data, Model,
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

/// One random state: every argument of the table's functions, flat.
struct State {
    /// Configuration.
    q: Vec<f64>,
    /// A second configuration (`difference(q, q2).unwrap()`; `pose_error`'s target is the frame there).
    q2: Vec<f64>,
    v: Vec<f64>,
    a: Vec<f64>,
    tau: Vec<f64>,
    /// Torques of the actuated dofs (`step_linearization`).
    u: Vec<f64>,
    /// One wrench `[linear; angular]` per joint id, the universe's zero, flat.
    fext: Vec<f64>,
    /// `pose_error`'s target as a row-major 4 x 4 homogeneous matrix.
    target: Vec<f64>,
    /// Contact forces `[nc]` in U[-1,1], vertical ones (point) offset by 50 N.
    lambda: Vec<f64>,
}

impl State {
    /// The value of the argument `name` of a function of the table.
    fn argument(&self, name: &str) -> Vec<f64> {
        match name {
            "q" | "q0" => self.q.clone(),
            "q1" => self.q2.clone(),
            "v" => self.v.clone(),
            "a" => self.a.clone(),
            "tau" => self.tau.clone(),
            "u" => self.u.clone(),
            "fext" => self.fext.clone(),
            "target" => self.target.clone(),
            "lambda" => self.lambda.clone(),
            "h" => vec![STEP],
            "damping" | "height" => vec![0.0],
            other => panic!("the bench has no value for an argument `{other}`"),
        }
    }
}

/// `integrate(neutral, U[-1,1]^nv).unwrap()`, as the Pinocchio harness draws `q`.
fn random_q(model: &Model, rng: &mut impl Rng) -> Vec<f64> {
    let step: Vec<f64> = (0..model.nv).map(|_| rng.gen_range(-1.0..1.0)).collect();
    integrate(model, &model.neutral(), &step).unwrap()
}

/// The bench's states; `frame`: the frame whose placement at `q2` is the target.
fn random_states(model: &Model, frame: usize) -> Vec<State> {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut data = Data::new(model);
    let nu = actuated_dofs(model).len();
    (0..STATES)
        .map(|_| {
            let q = random_q(model, &mut rng);
            let q2 = random_q(model, &mut rng);
            let mut uniform =
                |n: usize| -> Vec<f64> { (0..n).map(|_| rng.gen_range(-1.0..1.0)).collect() };
            let (v, a, tau, u) = (
                uniform(model.nv),
                uniform(model.nv),
                uniform(model.nv),
                uniform(nu),
            );
            let fext = [vec![0.0; 6], uniform(6 * (model.njoints() - 1))].concat();
            forward_kinematics(model, &mut data, &q2).unwrap();
            let target = frame_placement(model, &data, frame)
                .unwrap()
                .to_homogeneous()
                .concat();
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
                fext,
                target,
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

/// An array argument of a generated function (`&[f64; N]`, `&[[f64; C]; R]`),
/// viewed in its flat values.
trait ByRef {
    fn view(x: &[f64]) -> &Self;
}

impl<const N: usize> ByRef for [f64; N] {
    fn view(x: &[f64]) -> &Self {
        x.try_into().expect("an argument of the generated length")
    }
}

impl<const R: usize, const C: usize> ByRef for [[f64; C]; R] {
    // `as_chunks` is newer than the crate's MSRV; the benches build with the
    // pinned toolchain of rust-toolchain.toml only.
    #[allow(clippy::incompatible_msrv)]
    fn view(x: &[f64]) -> &Self {
        let (rows, rest) = x.as_chunks::<C>();
        assert!(rest.is_empty(), "an argument of whole rows");
        rows.try_into()
            .expect("an argument of the generated length")
    }
}

/// An argument of a generated function passed by value: a scalar (`h`,
/// `damping`, `height`), or the `Frame` of a per-frame function, given as its
/// position in `Frame::ALL`.
trait ByValue {
    fn value(x: &[f64]) -> Self;
}

impl ByValue for f64 {
    fn value(x: &[f64]) -> Self {
        x[0]
    }
}

/// [`ByValue`] for the `Frame` of each generated module.
macro_rules! frame_by_value {
    ($($g:ident),*) => {$(
        impl ByValue for $g::Frame {
            fn value(x: &[f64]) -> Self {
                $g::Frame::ALL[x[0] as usize]
            }
        }
    )*};
}
frame_by_value!(go2_z1, z1, go2, g1);

/// The marker of an argument taken by reference.
struct Ref<T: ?Sized>(PhantomData<T>);
/// The marker of an argument taken by value.
struct Val<T>(PhantomData<T>);

/// A generated function called on flat arguments (one slice per argument, in
/// the table's order, the frame's position last for a per-frame function).
/// `M` records how each argument is passed.
trait Call<M> {
    type Output: Flat;
    fn call(&self, args: &[Vec<f64>]) -> Self::Output;
}

/// [`Call`] for generated functions of the given arrays (by reference), then
/// the given values, each with its position.
macro_rules! impl_call {
    ([$($r:ident $i:tt),*] [$($v:ident $j:tt),*]) => {
        impl<F, O: Flat, $($r: ?Sized + ByRef,)* $($v: ByValue,)*> Call<($(Ref<$r>,)* $(Val<$v>,)*)> for F
        where
            F: Fn($(&$r,)* $($v,)*) -> O,
        {
            type Output = O;
            fn call(&self, args: &[Vec<f64>]) -> O {
                self($(<$r as ByRef>::view(&args[$i]),)* $(<$v as ByValue>::value(&args[$j]),)*)
            }
        }
    };
}
impl_call!([A 0] []);
impl_call!([A 0, B 1] []);
impl_call!([A 0] [B 1]);
impl_call!([A 0, B 1, C 2] []);
impl_call!([A 0, B 1] [C 2]);
impl_call!([A 0, B 1, C 2, D 3] []);
impl_call!([A 0, B 1, C 2] [D 3]);

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
struct Robot<'c> {
    name: &'static str,
    model: Model,
    data: Data<f64>,
    /// The frame of the per-frame functions ([`deepest_link_frame`]).
    frame_id: usize,
    /// Its position in the generated module's `Frame::ALL`.
    frame_position: usize,
    states: Vec<State>,
    /// The functions benched so far.
    benched: BTreeSet<Function>,
    group: BenchmarkGroup<'c, criterion::measurement::WallTime>,
}

impl<'c> Robot<'c> {
    /// The robot of the module with `dims` (`NQ`, `NV`, `NJOINTS`, `NU`) and
    /// link frames `frames` (`Frame::ALL`'s names).
    fn new(
        c: &'c mut Criterion,
        name: &'static str,
        urdf: &str,
        floating_base: bool,
        contacts: &[(&str, ContactKind)],
        dims: (usize, usize, usize, usize),
        frames: &[&str],
    ) -> Self {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(urdf);
        let mut model = Model::from_urdf_file(&path, floating_base)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        model.set_contacts(contacts).expect("the bench's contacts");
        let ours = (
            model.nq,
            model.nv,
            model.njoints(),
            actuated_dofs(&model).len(),
        );
        assert_eq!(ours, dims, "{name}: nq, nv, njoints, nu");
        let mut group = c.benchmark_group(name);
        group
            .sample_size(30)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_millis(1500));
        let frame_id = deepest_link_frame(&model);
        let frame_position = frames
            .iter()
            .position(|&f| f == model.frames[frame_id].name)
            .expect("the bench frame is a frame of the generated module");
        Self {
            name,
            data: Data::new(&model),
            states: random_states(&model, frame_id),
            frame_id,
            frame_position,
            model,
            benched: BTreeSet::new(),
            group,
        }
    }

    /// Benchmarks `function`, whose generated code is `generated`: checks
    /// it against the table's evaluation on `f64` on every state, then times
    /// both, cycling the states.
    fn bench<M>(&mut self, function: Function, generated: impl Call<M>) {
        self.benched.insert(function);
        let spec = function.spec();
        let frame = spec.per_frame.then_some(self.frame_id);
        let args: Vec<Vec<Vec<f64>>> = self
            .states
            .iter()
            .map(|s| {
                let mut x: Vec<Vec<f64>> = spec.args.iter().map(|(n, _)| s.argument(n)).collect();
                if spec.per_frame {
                    x.push(vec![self.frame_position as f64]);
                }
                x
            })
            .collect();
        let n = spec.args.len();
        for (k, x) in args.iter().enumerate() {
            let ours = generated.call(x).flat();
            let runtime = function
                .evaluate(&self.model, &mut self.data, &x[..n], frame)
                .unwrap();
            let what = format!("{} {}, state {k}", self.name, spec.name);
            common::assert_close(&what, &ours, &runtime, TOLERANCE);
        }
        self.group
            .bench_function(BenchmarkId::new(spec.name, "generated"), |b| {
                let mut k = 0;
                b.iter(|| {
                    let x = black_box(&args[k % STATES]);
                    k += 1;
                    black_box(generated.call(x))
                })
            });
        let (model, data) = (&self.model, &mut self.data);
        self.group
            .bench_function(BenchmarkId::new(spec.name, "runtime"), |b| {
                let mut k = 0;
                b.iter(|| {
                    let x = black_box(&args[k % STATES]);
                    k += 1;
                    black_box(function.evaluate(model, data, &x[..n], frame).unwrap())
                })
            });
    }

    /// Checks that every function of the table but `without` was benched, and
    /// finishes the group.
    fn finish(self, without: &[Function]) {
        let want: BTreeSet<Function> = Function::ALL
            .into_iter()
            .filter(|f| !without.contains(f))
            .collect();
        let missing: Vec<_> = want.difference(&self.benched).map(|f| f.name()).collect();
        assert!(
            missing.is_empty(),
            "{}: not benched: {missing:?}",
            self.name
        );
        self.group.finish();
    }
}

/// One robot: the generated module `$g` of `$urdf` (`$floating`: free-flyer
/// root) and the functions to bench, by name; finishes with the check that
/// every function of the table but `$without` was benched.
macro_rules! bench_robot {
    ($c:expr, $g:ident, $urdf:literal, $floating:literal, $contacts:expr, without $without:expr, [$($f:ident),* $(,)?]) => {{
        let frames: Vec<&str> = $g::Frame::ALL.iter().map(|f| f.name()).collect();
        let mut robot = Robot::new(
            $c,
            stringify!($g),
            $urdf,
            $floating,
            $contacts,
            ($g::NQ, $g::NV, $g::NJOINTS, $g::NU),
            &frames,
        );
        $(
            let function = Function::from_name(stringify!($f)).expect("a function of the table");
            robot.bench(function, $g::$f);
        )*
        robot.finish(&$without);
    }};
}

/// The benches, one group per robot (criterion's id `<robot>/<function>/<generated|runtime>`).
fn benches(c: &mut Criterion) {
    every_function!(bench_robot!(c, go2_z1, "models/go2_z1.urdf", true, GO2_Z1_FEET, without []));
    bench_robot!(c, go2, "models/go2.urdf", true, &[], without Function::ALL, [
        rnea, crba, aba, frame_placement, nonlinear_effects, generalized_gravity, minverse,
        center_of_mass, jacobian_center_of_mass, ccrba, kinetic_energy, rnea_derivatives,
        aba_derivatives,
    ]);
    every_function!(bench_robot!(c, z1, "models/z1.urdf", false, Z1_GRIPPER, without []));
    every_function!(bench_robot!(c, g1, "models/g1_29dof.urdf", true, G1_SOLES, without []));
}

/// Runs the benches with criterion's command line (`cargo bench --bench dynamics -- FILTER`).
fn main() {
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    c.final_summary();
}
