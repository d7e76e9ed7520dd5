//! Generated functions (`robot_dynamics!`) against the generic runtime
//! (`rbdgen::runtime`), in ns per call, for Go2+Z1, Go2 and the G1 humanoid
//! (free-flyer roots) and the Z1 arm (fixed base).
//!
//! Method, as the Pinocchio harness of `benches/pinocchio/`: one `Data` reused,
//! 100 random states cycled, `q = integrate(neutral, U[-1,1]^nv)` (a free-flyer
//! gets a U[-1,1]³ position and a uniformly random unit quaternion), `v`, `a`,
//! `tau` in U[-1,1]^nv. Before timing, each generated function is checked
//! against the runtime on all 100 states, so a bench never times a wrong
//! function (and `cargo test --benches` runs the checks).
//!
//! Results land in `target/criterion/<robot>/<function>/{generated,runtime}/`;
//! `scripts/bench` runs this together with Pinocchio and prints the table.
//! Adding a function is one line in [`bench_robot!`].

#[path = "../runtime/tests/common/mod.rs"]
mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkGroup, BenchmarkId, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rbdgen::runtime::{
    aba, aba_derivatives, crba, forward_kinematics, frame_placement, integrate, minverse, rnea,
    rnea_derivatives, Data, Jacobians, Model, Transform,
};

rbdgen::robot_dynamics!(
    mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    functions = [rnea, crba, aba, frame_placement, minverse, rnea_derivatives, aba_derivatives]
);
rbdgen::robot_dynamics!(
    mod go2,
    "models/go2.urdf",
    floating_base,
    functions = [rnea, crba, aba, frame_placement, minverse, rnea_derivatives, aba_derivatives]
);
rbdgen::robot_dynamics!(mod z1, "models/z1.urdf", functions = [rnea, crba, aba, frame_placement, minverse]);
rbdgen::robot_dynamics!(
    mod g1,
    "models/g1_29dof.urdf",
    floating_base,
    functions = [rnea, crba, aba, frame_placement, minverse]
);

/// Number of random states cycled through, as in the Pinocchio harness.
const STATES: usize = 100;

/// Relative agreement required between generated code and the runtime
/// (`|generated - runtime| <= TOLERANCE * max(1, max|runtime|)`).
const TOLERANCE: f64 = 1e-10;

/// One random state: `q: [NQ]`, `v`, `a`, `tau: [NV]`.
struct State<const NQ: usize, const NV: usize> {
    q: [f64; NQ],
    v: [f64; NV],
    a: [f64; NV],
    tau: [f64; NV],
}

/// `integrate(neutral, U[-1,1]^nv)`, as the Pinocchio harness draws `q`.
fn random_q<const NQ: usize>(model: &Model, rng: &mut impl Rng) -> [f64; NQ] {
    let step: Vec<f64> = (0..model.nv).map(|_| rng.gen_range(-1.0..1.0)).collect();
    integrate(model, &model.neutral(), &step)
        .try_into()
        .expect("generated NQ is the model's nq")
}

fn random_states<const NQ: usize, const NV: usize>(model: &Model) -> Vec<State<NQ, NV>> {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    (0..STATES)
        .map(|_| State {
            q: random_q(model, &mut rng),
            v: std::array::from_fn(|_| rng.gen_range(-1.0..1.0)),
            a: std::array::from_fn(|_| rng.gen_range(-1.0..1.0)),
            tau: std::array::from_fn(|_| rng.gen_range(-1.0..1.0)),
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

impl<A: Flat, B: Flat, C: Flat> Flat for (A, B, C) {
    fn flat(&self) -> Vec<f64> {
        [self.0.flat(), self.1.flat(), self.2.flat()].concat()
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
        "{}: frame_placement of {}",
        model.name, model.frames[best].name
    );
    best
}

/// One robot's benchmark group: its model, a reused `Data`, the states.
struct Robot<'c, const NQ: usize, const NV: usize> {
    name: &'static str,
    model: Model,
    data: Data<f64>,
    /// A second workspace, for the runtime's derivatives.
    dual: Data<f64>,
    states: Vec<State<NQ, NV>>,
    group: BenchmarkGroup<'c, criterion::measurement::WallTime>,
}

impl<'c, const NQ: usize, const NV: usize> Robot<'c, NQ, NV> {
    fn new(c: &'c mut Criterion, name: &'static str, urdf: &str, floating_base: bool) -> Self {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(urdf);
        let model = Model::from_urdf_file(&path, floating_base)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!((model.nq, model.nv), (NQ, NV), "{name}: nq, nv");
        let mut group = c.benchmark_group(name);
        group
            .sample_size(30)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_millis(2500));
        Self {
            name,
            data: Data::new(&model),
            dual: Data::new(&model),
            states: random_states(&model),
            model,
            group,
        }
    }
}

/// Benchmarks one function of a robot: checks the generated call against the
/// runtime call on every state, then times both, cycling the states.
/// `|s| generated` and `|m, d, s| runtime` name the state, model and data.
macro_rules! function {
    ($robot:ident, $name:literal, |$s:ident| $generated:expr, |$m:ident, $d:ident, $s2:ident| $runtime:expr) => {
        function! { $robot.data, $name, |$s| $generated, |$m, $d, $s2| $runtime }
    };
    ($robot:ident . $data:ident, $name:literal, |$s:ident| $generated:expr, |$m:ident, $d:ident, $s2:ident| $runtime:expr) => {{
        let robot = &mut $robot;
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

/// Every benchmarked function of a generated module `$g`, one line each.
/// `frame` (generated) / `frame_id` (runtime) is [`deepest_link_frame`].
macro_rules! bench_robot {
    ($c:expr, $g:ident, $urdf:literal, $floating:literal) => {{
        use $g as g;
        let mut robot = Robot::<{ g::NQ }, { g::NV }>::new($c, stringify!($g), $urdf, $floating);
        let frame_id = deepest_link_frame(&robot.model);
        let name = &robot.model.frames[frame_id].name;
        let frame = g::Frame::ALL.into_iter().find(|f| f.name() == name).unwrap();
        function! { robot, "rnea", |s| g::rnea(&s.q, &s.v, &s.a), |m, d, s| rnea(m, d, &s.q, &s.v, &s.a) }
        function! { robot, "crba", |s| g::crba(&s.q), |m, d, s| crba(m, d, &s.q) }
        function! { robot, "aba", |s| g::aba(&s.q, &s.v, &s.tau), |m, d, s| aba(m, d, &s.q, &s.v, &s.tau) }
        function! { robot, "frame_placement", |s| g::frame_placement(&s.q, frame), |m, d, s| { forward_kinematics(m, d, &s.q); frame_placement(m, d, frame_id) } }
        function! { robot, "minverse", |s| g::minverse(&s.q), |m, d, s| minverse(m, d, &s.q) }
        robot
    }};
}

/// The derivatives of a generated module `$g` (emitted only for some robots:
/// they are the largest functions to build).
macro_rules! bench_derivatives {
    ($robot:ident, $g:ident) => {{
        use $g as g;
        function! { $robot.dual, "rnea_derivatives", |s| g::rnea_derivatives(&s.q, &s.v, &s.a), |m, d, s| rnea_derivatives(m, d, &s.q, &s.v, &s.a) }
        function! { $robot.dual, "aba_derivatives", |s| g::aba_derivatives(&s.q, &s.v, &s.tau), |m, d, s| aba_derivatives(m, d, &s.q, &s.v, &s.tau) }
    }};
}

fn benches(c: &mut Criterion) {
    {
        let mut robot = bench_robot!(c, go2_z1, "models/go2_z1.urdf", true);
        bench_derivatives!(robot, go2_z1);
        robot.group.finish();
    }
    {
        let mut robot = bench_robot!(c, go2, "models/go2.urdf", true);
        bench_derivatives!(robot, go2);
        robot.group.finish();
    }
    bench_robot!(c, z1, "models/z1.urdf", false).group.finish();
    bench_robot!(c, g1, "models/g1_29dof.urdf", true)
        .group
        .finish();
}

/// Runs the benches with criterion's command line (`cargo bench --bench dynamics -- FILTER`).
fn main() {
    let mut c = Criterion::default().configure_from_args();
    benches(&mut c);
    c.final_summary();
}
