//! The machinery of the criterion benches of generated functions
//! (benches/dynamics.rs, benches/stance.rs): the random states, the calls of
//! a generated function on flat arguments, and one robot's benchmark group,
//! which checks each generated function against the runtime before timing
//! it. The method is described in benches/dynamics.rs.

use std::collections::BTreeSet;
use std::hint::black_box;
use std::marker::PhantomData;
use std::time::Duration;

use criterion::{BenchmarkGroup, BenchmarkId, Criterion};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rbdgen::runtime::{
    actuated_dofs, forward_kinematics, frame_placement, integrate, ContactKind, Data, FrameKind,
    Model,
};
use rbdgen::symbolic::Function;

/// Number of random states cycled through, as in the Pinocchio harness.
pub const STATES: usize = 100;

/// The time step `h` of `step_linearization` (s).
pub const STEP: f64 = 0.01;

/// Relative agreement required between generated code and the runtime
/// (`|generated - runtime| <= TOLERANCE * max(1, max|runtime|)`).
pub const TOLERANCE: f64 = 1e-10;

/// One random state: every argument of the table's functions, flat.
pub struct State {
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
            // Every contact in contact: the masked functions' stance.
            "active" => vec![1.0; self.lambda.len()],
            "h" => vec![STEP],
            "damping" | "height" | "restitution" => vec![0.0],
            other => panic!("the bench has no value for an argument `{other}`"),
        }
    }
}

/// `integrate(neutral, U[-1,1]^nv).unwrap()`, as the Pinocchio harness draws `q`.
pub fn random_q(model: &Model, rng: &mut impl Rng) -> Vec<f64> {
    let step: Vec<f64> = (0..model.nv).map(|_| rng.gen_range(-1.0..1.0)).collect();
    integrate(model, &model.neutral(), &step).unwrap()
}

/// The bench's states; `frame`: the frame whose placement at `q2` is the target.
pub fn random_states(model: &Model, frame: usize) -> Vec<State> {
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
pub trait Flat {
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

impl<A: Flat, B: Flat, C: Flat, D: Flat, E: Flat> Flat for (A, B, C, D, E) {
    fn flat(&self) -> Vec<f64> {
        [
            self.0.flat(),
            self.1.flat(),
            self.2.flat(),
            self.3.flat(),
            self.4.flat(),
        ]
        .concat()
    }
}

impl<A: Flat, B: Flat, C: Flat, D: Flat, E: Flat, F: Flat> Flat for (A, B, C, D, E, F) {
    fn flat(&self) -> Vec<f64> {
        [
            self.0.flat(),
            self.1.flat(),
            self.2.flat(),
            self.3.flat(),
            self.4.flat(),
            self.5.flat(),
        ]
        .concat()
    }
}

impl<A: Flat, B: Flat, C: Flat, D: Flat, E: Flat, F: Flat, G: Flat> Flat for (A, B, C, D, E, F, G) {
    fn flat(&self) -> Vec<f64> {
        [
            self.0.flat(),
            self.1.flat(),
            self.2.flat(),
            self.3.flat(),
            self.4.flat(),
            self.5.flat(),
            self.6.flat(),
        ]
        .concat()
    }
}

/// An array argument of a generated function (`&[f64; N]`, `&[[f64; C]; R]`),
/// viewed in its flat values.
pub trait ByRef {
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
pub trait ByValue {
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

/// The marker of an argument taken by reference.
pub struct Ref<T: ?Sized>(PhantomData<T>);
/// The marker of an argument taken by value.
pub struct Val<T>(PhantomData<T>);

/// A generated function called on flat arguments (one slice per argument, in
/// the table's order, the frame's position last for a per-frame function).
/// `M` records how each argument is passed.
pub trait Call<M> {
    type Output: Flat;
    fn call(&self, args: &[Vec<f64>]) -> Self::Output;
}

/// A generated function's `NAME_into` called on flat arguments, as [`Call`],
/// writing into `out`.
pub trait CallInto<M, O> {
    fn call_into(&self, args: &[Vec<f64>], out: &mut O);
}

/// [`Call`] and [`CallInto`] for generated functions of the given arrays (by
/// reference), then the given values, each with its position.
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
        impl<F, O, $($r: ?Sized + ByRef,)* $($v: ByValue,)*> CallInto<($(Ref<$r>,)* $(Val<$v>,)*), O> for F
        where
            F: Fn($(&$r,)* $($v,)* &mut O),
        {
            fn call_into(&self, args: &[Vec<f64>], out: &mut O) {
                self($(<$r as ByRef>::view(&args[$i]),)* $(<$v as ByValue>::value(&args[$j]),)* out)
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
impl_call!([A 0, B 1, C 2] [D 3, E 4]);
impl_call!([A 0, B 1] [C 2, D 3]);
impl_call!([A 0, B 1, C 2, D 3] [E 4]);

/// [`Call`] and [`CallInto`] for the one signature of the table whose
/// arrays and values alternate: `contact_step_linearization_masked(q, v, u,
/// h, active, damping)` (and its `_forces_masked` form).
impl<F, O: Flat, A, B, C, D, E, G> Call<(Ref<A>, Ref<B>, Ref<C>, Val<D>, Ref<E>, Val<G>)> for F
where
    A: ?Sized + ByRef,
    B: ?Sized + ByRef,
    C: ?Sized + ByRef,
    D: ByValue,
    E: ?Sized + ByRef,
    G: ByValue,
    F: Fn(&A, &B, &C, D, &E, G) -> O,
{
    type Output = O;
    fn call(&self, x: &[Vec<f64>]) -> O {
        self(
            A::view(&x[0]),
            B::view(&x[1]),
            C::view(&x[2]),
            D::value(&x[3]),
            E::view(&x[4]),
            G::value(&x[5]),
        )
    }
}
impl<F, O, A, B, C, D, E, G> CallInto<(Ref<A>, Ref<B>, Ref<C>, Val<D>, Ref<E>, Val<G>), O> for F
where
    A: ?Sized + ByRef,
    B: ?Sized + ByRef,
    C: ?Sized + ByRef,
    D: ByValue,
    E: ?Sized + ByRef,
    G: ByValue,
    F: Fn(&A, &B, &C, D, &E, G, &mut O),
{
    fn call_into(&self, x: &[Vec<f64>], out: &mut O) {
        self(
            A::view(&x[0]),
            B::view(&x[1]),
            C::view(&x[2]),
            D::value(&x[3]),
            E::view(&x[4]),
            G::value(&x[5]),
            out,
        )
    }
}

/// The link frame at the end of the longest joint chain (the first in model
/// order among ties): the frame whose placement costs the most.
pub fn deepest_link_frame(model: &Model) -> usize {
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
pub struct Robot<'c> {
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
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        c: &'c mut Criterion,
        name: &'static str,
        urdf: &str,
        floating_base: bool,
        contacts: &[(&str, ContactKind)],
        dims: (usize, usize, usize, usize),
        frames: &[&str],
        frame: Option<&str>,
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
        let frame_id = match frame {
            Some(name) => model
                .frame_id(name, FrameKind::Body)
                .unwrap_or_else(|| panic!("{name}: no link frame of that name")),
            None => deepest_link_frame(&model),
        };
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
    pub fn bench<M>(&mut self, function: Function, generated: impl Call<M>) {
        self.benched.insert(function);
        let spec = function.spec();
        let frame = spec.per_frame.then_some(self.frame_id);
        let args = self.arguments(function);
        let n = spec.args.len();
        for (k, x) in args.iter().enumerate() {
            let ours = generated.call(x).flat();
            let runtime = function
                .evaluate(&self.model, &mut self.data, &x[..n], frame)
                .unwrap();
            let what = format!("{} {}, state {k}", self.name, spec.name);
            crate::common::assert_close(&what, &ours, &runtime, TOLERANCE);
        }
        self.group
            .bench_function(BenchmarkId::new(spec.name, "generated"), |b| {
                let mut k = 0;
                // The result stays where the function wrote it: returned
                // through a second `black_box` (criterion's), it would be
                // copied once more, a copy its caller does not pay (G1's
                // `crba`: 15 % of its time).
                b.iter(|| {
                    let x = black_box(&args[k % STATES]);
                    k += 1;
                    let out = generated.call(x);
                    black_box(&out);
                })
            });
        let (model, data) = (&self.model, &mut self.data);
        self.group
            .bench_function(BenchmarkId::new(spec.name, "runtime"), |b| {
                let mut k = 0;
                b.iter(|| {
                    let x = black_box(&args[k % STATES]);
                    k += 1;
                    let out = function.evaluate(model, data, &x[..n], frame).unwrap();
                    black_box(&out);
                })
            });
    }

    /// Each state's flat arguments of `function` (the frame's position last
    /// for a per-frame function).
    fn arguments(&self, function: Function) -> Vec<Vec<Vec<f64>>> {
        let spec = function.spec();
        self.states
            .iter()
            .map(|s| {
                let mut x: Vec<Vec<f64>> = spec.args.iter().map(|(n, _)| s.argument(n)).collect();
                if spec.per_frame {
                    x.push(vec![self.frame_position as f64]);
                }
                x
            })
            .collect()
    }

    /// Benchmarks `function`'s `NAME_into` (`into`) on one result kept from
    /// call to call, as Pinocchio keeps its `Data`: starts from the result of
    /// `generated` (the by-value function) at the last state, checks that
    /// `into` then writes exactly `generated`'s result at every state, and
    /// times it, cycling the states (criterion's id
    /// `<robot>/<function>/into`).
    pub fn bench_into<M, O: Flat>(
        &mut self,
        function: Function,
        generated: impl Call<M, Output = O>,
        into: impl CallInto<M, O>,
    ) {
        let spec = function.spec();
        let args = self.arguments(function);
        let mut out = generated.call(&args[STATES - 1]);
        for (k, x) in args.iter().enumerate() {
            into.call_into(x, &mut out);
            let what = format!("{} {}_into, state {k}", self.name, spec.name);
            assert_eq!(out.flat(), generated.call(x).flat(), "{what}");
        }
        self.group
            .bench_function(BenchmarkId::new(spec.name, "into"), |b| {
                let mut k = 0;
                b.iter(|| {
                    let x = black_box(&args[k % STATES]);
                    k += 1;
                    into.call_into(x, black_box(&mut out));
                })
            });
    }

    /// Checks that every function of the table but `without` was benched, and
    /// finishes the group.
    pub fn finish(self, without: &[Function]) {
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
/// every function of the table but `$without` was benched. `frame
/// Some("NAME")` names the link frame of the per-frame functions (by default
/// [`deepest_link_frame`]).
macro_rules! bench_robot {
    ($c:expr, $g:ident, $urdf:literal, $floating:literal, $contacts:expr, without $without:expr, [$($f:ident),* $(,)?]) => {
        bench_robot!($c, $g, $urdf, $floating, $contacts, frame None, into [], without $without, [$($f),*])
    };
    ($c:expr, $g:ident, $urdf:literal, $floating:literal, $contacts:expr, into [$($i:ident: $into:ident),* $(,)?], without $without:expr, [$($f:ident),* $(,)?]) => {
        bench_robot!($c, $g, $urdf, $floating, $contacts, frame None, into [$($i: $into),*], without $without, [$($f),*])
    };
    ($c:expr, $g:ident, $urdf:literal, $floating:literal, $contacts:expr, frame $frame:expr, without $without:expr, [$($f:ident),* $(,)?]) => {
        bench_robot!($c, $g, $urdf, $floating, $contacts, frame $frame, into [], without $without, [$($f),*])
    };
    ($c:expr, $g:ident, $urdf:literal, $floating:literal, $contacts:expr, frame $frame:expr, into [$($i:ident: $into:ident),* $(,)?], without $without:expr, [$($f:ident),* $(,)?]) => {{
        let frames: Vec<&str> = $g::Frame::ALL.iter().map(|f| f.name()).collect();
        let mut robot = Robot::new(
            $c,
            stringify!($g),
            $urdf,
            $floating,
            $contacts,
            ($g::NQ, $g::NV, $g::NJOINTS, $g::NU),
            &frames,
            $frame,
        );
        $(
            let function = Function::from_name(stringify!($f)).expect("a function of the table");
            robot.bench(function, $g::$f);
        )*
        $(
            let function = Function::from_name(stringify!($i)).expect("a function of the table");
            robot.bench_into(function, $g::$i, $g::$into);
        )*
        robot.finish(&$without);
    }};
}

/// `[Function; N]` of a list of benches/common/functions.rs:
/// `mpc_functions!(function_list!())`.
#[allow(unused_macros)]
macro_rules! function_list {
    (, [$($f:ident),* $(,)?]) => {
        [$(Function::from_name(stringify!($f)).expect("a function of the table")),*]
    };
}
