//! Many states per call: the scalar generated functions against their
//! `lanes = 4` versions (one state per lane), for Go2+Z1 and G1: the kernel
//! on states already in lanes (structure of arrays), the array-of-structures
//! wrapper (with its transpositions), the batch function over 64 states, and
//! that batch split across two threads with rayon.
//!
//! Run with `scripts/bench-lanes` (native code generation flags, as
//! `scripts/bench`). Not part of `cargo test --all-targets` (`bench = false`
//! in Cargo.toml): `tests/generated_lanes.rs` checks the lanes' values.
//! Criterion reports each row's throughput in states per second
//! (`Throughput::Elements(64)`); `scripts/bench-lanes` prints ns per state.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use rbdgen::runtime::{integrate, Model};

// The lanes of the largest functions (aba_derivatives, step_linearization:
// 50k to 120k operations) take rustc far longer to optimise in release builds
// than their scalar versions (over half an hour for G1's on this machine), so
// the bench covers the core functions of both robots and Go2+Z1's RNEA
// derivatives; tests/generated_lanes.rs checks every function's lanes.
rbdgen::robot_dynamics!(
    mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    lanes = 4,
    functions = [rnea, crba, aba, minverse, rnea_derivatives]
);

rbdgen::robot_dynamics!(
    mod g1,
    "models/g1_29dof.urdf",
    floating_base,
    lanes = 4,
    functions = [rnea, crba, aba, minverse]
);

/// States per batch.
const BATCH: usize = 64;

/// `BATCH` arrays of U[-1, 1].
fn draw<const N: usize>(rng: &mut ChaCha8Rng) -> Vec<[f64; N]> {
    (0..BATCH)
        .map(|_| std::array::from_fn(|_| rng.gen_range(-1.0..1.0)))
        .collect()
}

/// `BATCH` configurations `integrate(neutral, U[-1,1]^nv)`, as `scripts/bench` draws them.
fn configurations<const NQ: usize>(urdf: &str, rng: &mut ChaCha8Rng) -> Vec<[f64; NQ]> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(urdf);
    let model = Model::from_urdf_file(path, true).expect("the bench's URDF loads");
    (0..BATCH)
        .map(|_| {
            let step: Vec<f64> = (0..model.nv).map(|_| rng.gen_range(-1.0..1.0)).collect();
            integrate(&model, &model.neutral(), &step)
                .try_into()
                .unwrap()
        })
        .collect()
}

/// Benches `$f` of module `$m` on the `BATCH`-long argument vectors `$x`
/// (each passed by reference): scalar, lanes kernel, AoS wrapper, batch,
/// batch on two threads. `$aos`, `$batch`: the wrappers' names.
macro_rules! bench_function {
    ($c:expr, $robot:literal, $m:ident, $f:ident, $aos:ident, $batch:ident, [$($x:ident),*]) => {{
        use $m::lanes::{self, Lanes, L};
        let mut group = $c.benchmark_group(format!("{}/{}", $robot, stringify!($f)));
        group
            .sample_size(20)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_millis(1500))
            .throughput(Throughput::Elements(BATCH as u64));
        group.bench_function(BenchmarkId::new("scalar", BATCH), |b| {
            b.iter(|| {
                for k in 0..BATCH {
                    black_box($m::$f($(black_box(&$x[k])),*));
                }
            })
        });
        let groups: Vec<_> = (0..BATCH / L)
            .map(|g| ($(Lanes::gather(&std::array::from_fn::<_, L, _>(|j| $x[g * L + j])),)*))
            .collect();
        group.bench_function(BenchmarkId::new("lanes", BATCH), |b| {
            b.iter(|| {
                for ($($x,)*) in &groups {
                    black_box(lanes::$f($(black_box($x)),*));
                }
            })
        });
        group.bench_function(BenchmarkId::new("aos", BATCH), |b| {
            b.iter(|| {
                for g in 0..BATCH / L {
                    black_box(lanes::$aos($(&std::array::from_fn(|j| $x[g * L + j])),*));
                }
            })
        });
        let mut out = vec![$m::$f($(&$x[0]),*); BATCH];
        group.bench_function(BenchmarkId::new("batch", BATCH), |b| {
            b.iter(|| lanes::$batch($(black_box(&$x)),*, black_box(&mut out)).unwrap())
        });
        let half = BATCH / 2;
        group.bench_function(BenchmarkId::new("batch_threads", BATCH), |b| {
            b.iter(|| {
                out.par_chunks_mut(half).enumerate().for_each(|(i, o)| {
                    let r = i * half..(i + 1) * half;
                    lanes::$batch($(&$x[r.clone()]),*, o).unwrap()
                })
            })
        });
        group.finish();
    }};
}

/// The functions of a robot's module `$m` (`derivatives: true`: also the RNEA derivatives).
macro_rules! bench_robot {
    ($c:expr, $robot:literal, $m:ident, $urdf:literal, derivatives: $derivatives:tt) => {{
        let mut rng = ChaCha8Rng::seed_from_u64(2024);
        let q: Vec<[f64; $m::NQ]> = configurations($urdf, &mut rng);
        let v: Vec<[f64; $m::NV]> = draw(&mut rng);
        let a: Vec<[f64; $m::NV]> = draw(&mut rng);
        bench_function!($c, $robot, $m, rnea, rnea_aos, rnea_batch, [q, v, a]);
        bench_function!($c, $robot, $m, crba, crba_aos, crba_batch, [q]);
        bench_function!($c, $robot, $m, aba, aba_aos, aba_batch, [q, v, a]);
        bench_function!($c, $robot, $m, minverse, minverse_aos, minverse_batch, [q]);
        bench_robot!(@derivatives $derivatives, $c, $robot, $m, q, v, a);
    }};
    (@derivatives true, $c:expr, $robot:literal, $m:ident, $q:ident, $v:ident, $a:ident) => {
        bench_function!(
            $c,
            $robot,
            $m,
            rnea_derivatives,
            rnea_derivatives_aos,
            rnea_derivatives_batch,
            [$q, $v, $a]
        );
    };
    (@derivatives false, $($rest:tt)*) => {};
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_robot!(&mut c, "go2_z1", go2_z1, "models/go2_z1.urdf", derivatives: true);
    bench_robot!(&mut c, "g1", g1, "models/g1_29dof.urdf", derivatives: false);
    c.final_summary();
}
