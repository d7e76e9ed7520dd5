//! Many states per call: the scalar generated functions against their
//! `lanes = 4` versions (one state per lane), for Go2+Z1 and G1, on 64
//! random states: the kernel on states already in lanes (structure of
//! arrays), the array-of-structures wrapper (with its transpositions), the
//! batch function, the threaded batch (`NAME_batch_par`), and the runtime's
//! loop over the same states (`runtime::batch::batch`, one `Data` reused,
//! and `batch_par`). Then the MPC example's horizon
//! (`examples/mpc_linearization.rs`, 40 knots of Go2+Z1): scalar, batch and
//! threaded batch of `step_linearization`.
//!
//! Run with `scripts/bench --lanes` (native code generation flags, as the
//! other benches; feature `rayon`). Not part of `cargo test --all-targets`
//! (`bench = false` in Cargo.toml): `tests/generated_lanes.rs` checks the
//! lanes' values. Criterion's throughput is in states per second;
//! `scripts/bench` prints ns per state.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rbdgen::runtime::batch::{batch, batch_par};
use rbdgen::runtime::{
    aba, aba_derivatives, crba, integrate, minverse, rnea, rnea_derivatives, step_linearization,
    Data, InputError, Model,
};

/// The MPC example: its horizon and its Go2+Z1 module (`step_linearization`
/// with `lanes = 4` and `threads`), so that the largest kernel is built once.
#[path = "../examples/mpc_linearization.rs"]
#[allow(dead_code)]
mod mpc;

// Each robot's module holds the functions of the table (lanes and threads);
// Go2+Z1's step_linearization is the MPC example's. Building the lanes of
// the derivatives takes rustc minutes (scripts/bench prints the build time).
rbdgen::robot_dynamics!(
    mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    lanes = 4,
    threads,
    functions = [rnea, crba, aba, minverse, rnea_derivatives, aba_derivatives]
);

rbdgen::robot_dynamics!(
    mod g1,
    "models/g1_29dof.urdf",
    floating_base,
    lanes = 4,
    threads,
    functions = [rnea, crba, aba, minverse, rnea_derivatives, aba_derivatives, step_linearization]
);

/// States per batch.
const BATCH: usize = 64;
/// The time step of `step_linearization` (s), as benches/dynamics.rs.
const STEP: f64 = 0.01;

/// `n` arrays of U[-1, 1].
fn draw<const N: usize>(n: usize, rng: &mut ChaCha8Rng) -> Vec<[f64; N]> {
    (0..n)
        .map(|_| std::array::from_fn(|_| rng.gen_range(-1.0..1.0)))
        .collect()
}

fn model(urdf: &str) -> Model {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(urdf);
    Model::from_urdf_file(path, true).expect("the bench's URDF loads")
}

/// `BATCH` configurations `integrate(neutral, U[-1,1]^nv).unwrap()`, as `scripts/bench` draws them.
fn configurations<const NQ: usize>(model: &Model, rng: &mut ChaCha8Rng) -> Vec<[f64; NQ]> {
    (0..BATCH)
        .map(|_| {
            let step: Vec<f64> = (0..model.nv).map(|_| rng.gen_range(-1.0..1.0)).collect();
            integrate(model, &model.neutral(), &step)
                .unwrap()
                .try_into()
                .unwrap()
        })
        .collect()
}

fn group<'c>(
    c: &'c mut Criterion,
    name: String,
    n: usize,
) -> criterion::BenchmarkGroup<'c, criterion::measurement::WallTime> {
    let mut group = c.benchmark_group(name);
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(1500))
        .throughput(Throughput::Elements(n as u64));
    group
}

/// The runtime's counterpart of a function: `|model, data, state, out|` for
/// [`batch`], on the states as `Vec`s.
type RuntimeState = Vec<Vec<f64>>;

/// The AoS, batch and threaded batch rows of [`bench_function`]: the
/// wrappers' names from the function's.
macro_rules! paste_aos_batch {
    ($group:ident, $lanes:ident, $l:ident, $f:ident, [$($x:ident),*] $(; $h:ident)?) => {{
        let (aos, batch_fn, batch_par_fn) = wrappers!($lanes, $f);
        $group.bench_function(BenchmarkId::new("aos", BATCH), |b| {
            b.iter(|| {
                for g in 0..BATCH / $l {
                    black_box(aos(
                        $(&std::array::from_fn(|j| $x[g * $l + j]),)*
                        $(&std::array::from_fn(|j| $h[g * $l + j]))?
                    ));
                }
            })
        });
        let mut out: Vec<_> = (0..BATCH).map(|k| aos(
            $(&std::array::from_fn(|j| $x[(k / $l) * $l + j]),)*
            $(&std::array::from_fn(|j| $h[(k / $l) * $l + j]))?
        )[0]).collect();
        $group.bench_function(BenchmarkId::new("batch", BATCH), |b| {
            b.iter(|| batch_fn($(black_box(&$x),)* $(black_box(&$h),)? black_box(&mut out)).unwrap())
        });
        $group.bench_function(BenchmarkId::new("batch_threads", BATCH), |b| {
            b.iter(|| batch_par_fn($(black_box(&$x),)* $(black_box(&$h),)? black_box(&mut out)).unwrap())
        });
    }};
}

/// `(NAME_aos, NAME_batch, NAME_batch_par)` of a lanes module.
macro_rules! wrappers {
    ($lanes:ident, rnea) => {
        ($lanes::rnea_aos, $lanes::rnea_batch, $lanes::rnea_batch_par)
    };
    ($lanes:ident, crba) => {
        ($lanes::crba_aos, $lanes::crba_batch, $lanes::crba_batch_par)
    };
    ($lanes:ident, aba) => {
        ($lanes::aba_aos, $lanes::aba_batch, $lanes::aba_batch_par)
    };
    ($lanes:ident, minverse) => {
        (
            $lanes::minverse_aos,
            $lanes::minverse_batch,
            $lanes::minverse_batch_par,
        )
    };
    ($lanes:ident, rnea_derivatives) => {
        (
            $lanes::rnea_derivatives_aos,
            $lanes::rnea_derivatives_batch,
            $lanes::rnea_derivatives_batch_par,
        )
    };
    ($lanes:ident, aba_derivatives) => {
        (
            $lanes::aba_derivatives_aos,
            $lanes::aba_derivatives_batch,
            $lanes::aba_derivatives_batch_par,
        )
    };
    ($lanes:ident, step_linearization) => {
        (
            $lanes::step_linearization_aos,
            $lanes::step_linearization_batch,
            $lanes::step_linearization_batch_par,
        )
    };
}

/// Benches `$f` of module `$m` on the `BATCH`-long argument vectors `$x`
/// (passed by reference; `$h`, when given, a vector of scalars passed by
/// value): scalar, lanes kernel, AoS wrapper, batch, threaded batch, and the
/// runtime's loop `$runtime` (a closure for `batch`) serial and threaded.
macro_rules! bench_function {
    ($c:expr, $robot:literal, $model:expr, $($m:ident)::+, $f:ident, [$($x:ident),*] $(; $h:ident)?, $runtime:expr) => {{
        use $($m)::+ as m;
        use m::lanes::{self, Lanes, L};
        let mut group = group($c, format!("{}/{}", $robot, stringify!($f)), BATCH);
        group.bench_function(BenchmarkId::new("scalar", BATCH), |b| {
            b.iter(|| {
                for k in 0..BATCH {
                    black_box(m::$f($(black_box(&$x[k]),)* $(black_box($h[k]))?));
                }
            })
        });
        let groups: Vec<_> = (0..BATCH / L)
            .map(|g| {
                (
                    $(Lanes::gather(&std::array::from_fn::<_, L, _>(|j| $x[g * L + j])),)*
                    $(lanes::V::new(std::array::from_fn::<_, L, _>(|j| $h[g * L + j])),)?
                )
            })
            .collect();
        group.bench_function(BenchmarkId::new("lanes", BATCH), |b| {
            b.iter(|| {
                for ($($x,)* $($h,)?) in &groups {
                    black_box(lanes::$f($(black_box($x),)* $(black_box(*$h))?));
                }
            })
        });
        paste_aos_batch!(group, lanes, L, $f, [$($x),*] $(; $h)?);
        let runtime_states: Vec<RuntimeState> = (0..BATCH)
            .map(|k| vec![$($x[k].to_vec(),)* $(vec![$h[k]])?])
            .collect();
        let model: &Model = $model;
        let mut data = Data::new(model);
        let mut out = vec![Vec::new(); BATCH];
        group.bench_function(BenchmarkId::new("runtime_batch", BATCH), |b| {
            b.iter(|| batch(model, &mut data, black_box(&runtime_states), &mut out, $runtime).unwrap())
        });
        group.bench_function(BenchmarkId::new("runtime_batch_par", BATCH), |b| {
            b.iter(|| batch_par(model, black_box(&runtime_states), &mut out, $runtime).unwrap())
        });
        group.finish();
    }};
}

/// The runtime's functions of the table, as closures for [`batch`]: the
/// state's arguments in order, the result copied or moved into `out`.
fn runtime_rnea(
    m: &Model,
    d: &mut Data<f64>,
    s: &RuntimeState,
    out: &mut Vec<f64>,
) -> Result<(), InputError> {
    out.clear();
    out.extend_from_slice(rnea(m, d, &s[0], &s[1], &s[2])?);
    Ok(())
}
fn runtime_crba(
    m: &Model,
    d: &mut Data<f64>,
    s: &RuntimeState,
    out: &mut Vec<f64>,
) -> Result<(), InputError> {
    out.clear();
    out.extend_from_slice(crba(m, d, &s[0])?);
    Ok(())
}
fn runtime_aba(
    m: &Model,
    d: &mut Data<f64>,
    s: &RuntimeState,
    out: &mut Vec<f64>,
) -> Result<(), InputError> {
    out.clear();
    out.extend_from_slice(aba(m, d, &s[0], &s[1], &s[2])?);
    Ok(())
}
fn runtime_minverse(
    m: &Model,
    d: &mut Data<f64>,
    s: &RuntimeState,
    out: &mut Vec<f64>,
) -> Result<(), InputError> {
    out.clear();
    out.extend_from_slice(minverse(m, d, &s[0])?);
    Ok(())
}
fn runtime_rnea_derivatives(
    m: &Model,
    d: &mut Data<f64>,
    s: &RuntimeState,
    out: &mut Vec<f64>,
) -> Result<(), InputError> {
    *out = rnea_derivatives(m, d, &s[0], &s[1], &s[2])?.d_dq;
    Ok(())
}
fn runtime_aba_derivatives(
    m: &Model,
    d: &mut Data<f64>,
    s: &RuntimeState,
    out: &mut Vec<f64>,
) -> Result<(), InputError> {
    *out = aba_derivatives(m, d, &s[0], &s[1], &s[2])?.d_dq;
    Ok(())
}
fn runtime_step_linearization(
    m: &Model,
    d: &mut Data<f64>,
    s: &RuntimeState,
    out: &mut Vec<f64>,
) -> Result<(), InputError> {
    *out = step_linearization(m, d, &s[0], &s[1], &s[2], s[3][0])?.2;
    Ok(())
}

/// A robot's rows: `$m` its module, `$step` the module of its `step_linearization`.
macro_rules! bench_robot {
    ($c:expr, $robot:literal, $m:ident, $($step:ident)::+, $urdf:literal) => {{
        let model = model($urdf);
        let mut rng = ChaCha8Rng::seed_from_u64(2024);
        let q: Vec<[f64; $m::NQ]> = configurations(&model, &mut rng);
        let v: Vec<[f64; $m::NV]> = draw(BATCH, &mut rng);
        let a: Vec<[f64; $m::NV]> = draw(BATCH, &mut rng);
        let u: Vec<[f64; $m::NU]> = draw(BATCH, &mut rng);
        let h = vec![STEP; BATCH];
        bench_function!($c, $robot, &model, $m, rnea, [q, v, a], runtime_rnea);
        bench_function!($c, $robot, &model, $m, crba, [q], runtime_crba);
        bench_function!($c, $robot, &model, $m, aba, [q, v, a], runtime_aba);
        bench_function!($c, $robot, &model, $m, minverse, [q], runtime_minverse);
        bench_function!($c, $robot, &model, $m, rnea_derivatives, [q, v, a], runtime_rnea_derivatives);
        bench_function!($c, $robot, &model, $m, aba_derivatives, [q, v, a], runtime_aba_derivatives);
        bench_function!($c, $robot, &model, $($step)::+, step_linearization, [q, v, u]; h, runtime_step_linearization);
    }};
}

/// The MPC example's horizon: 40 knots of Go2+Z1, `step_linearization`
/// scalar knot by knot, batch, and threaded batch.
fn bench_mpc(c: &mut Criterion) {
    use mpc::go2_z1::{self as m, lanes};
    let (q, v, u) = mpc::horizon();
    let h = [mpc::DT; mpc::KNOTS];
    let mut out: Vec<mpc::Linearization> = (0..mpc::KNOTS)
        .map(|k| m::step_linearization(&q[k], &v[k], &u[k], h[k]))
        .collect();
    let mut group = group(c, "mpc/go2_z1".to_string(), mpc::KNOTS);
    group.bench_function("scalar", |b| {
        b.iter(|| {
            for k in 0..mpc::KNOTS {
                out[k] = m::step_linearization(&q[k], &v[k], &u[k], black_box(h[k]));
            }
        })
    });
    group.bench_function("batch", |b| {
        b.iter(|| lanes::step_linearization_batch(&q, &v, &u, black_box(&h), &mut out).unwrap())
    });
    group.bench_function("batch_threads", |b| {
        b.iter(|| lanes::step_linearization_batch_par(&q, &v, &u, black_box(&h), &mut out).unwrap())
    });
    group.finish();
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_robot!(&mut c, "go2_z1", go2_z1, mpc::go2_z1, "models/go2_z1.urdf");
    bench_robot!(&mut c, "g1", g1, g1, "models/g1_29dof.urdf");
    bench_mpc(&mut c);
    c.final_summary();
}
