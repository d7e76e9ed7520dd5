//! Lanes: every generated function over `L` states at once matches the scalar
//! generated function on each lane (the same operations lane by lane, with
//! `wide`'s vectorised sine and cosine: within 1e-13 in the spec's relative
//! measure, 1e-5 in `f32`), through the kernel and the batch function (a
//! batch length that is not a multiple of `L` included); for Go2+Z1 with 4
//! lanes and Z1 with 2 and 8, the derivatives and `step_linearization`
//! included, and Z1 in `f32` with 8 lanes. With `threads` (feature `rayon`),
//! `NAME_batch_par` equals `NAME_batch` bit for bit at every length.

#[path = "../runtime/tests/common/mod.rs"]
mod common;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

rbdgen::robot_dynamics!(
    mod go2_z1,
    "models/go2_z1.urdf",
    floating_base,
    contacts = [FL_foot: point, FR_foot: point, RL_foot: point, RR_foot: point],
    frames = [gripper_link],
    lanes = 4,
    functions = [rnea, crba, aba, minverse, kinetic_energy, frame_placement, contact_dynamics, integrate]
);

rbdgen::robot_dynamics!(mod z1_2, "models/z1.urdf", lanes = 2, unroll_limit = 0, functions = [aba_derivatives, step_linearization]);
rbdgen::robot_dynamics!(mod z1_8, "models/z1.urdf", lanes = 8, functions = [rnea_derivatives, difference]);
rbdgen::robot_dynamics!(mod z1_f32, "models/z1.urdf", scalar = f32, lanes = 8, functions = [rnea, aba, frame_placement]);

/// Every entry of a result, as `f64`, in order.
trait Flat {
    /// The lanes' tolerance for the entries' type.
    const TOLERANCE: f64;
    fn flat(&self, out: &mut Vec<f64>);
}

impl Flat for f64 {
    const TOLERANCE: f64 = 1e-13;
    fn flat(&self, out: &mut Vec<f64>) {
        out.push(*self);
    }
}

impl Flat for f32 {
    const TOLERANCE: f64 = 1e-5;
    fn flat(&self, out: &mut Vec<f64>) {
        out.push(f64::from(*self));
    }
}

impl<T: Flat, const N: usize> Flat for [T; N] {
    const TOLERANCE: f64 = T::TOLERANCE;
    fn flat(&self, out: &mut Vec<f64>) {
        self.iter().for_each(|x| x.flat(out));
    }
}

impl<A: Flat, B: Flat> Flat for (A, B) {
    const TOLERANCE: f64 = A::TOLERANCE;
    fn flat(&self, out: &mut Vec<f64>) {
        self.0.flat(out);
        self.1.flat(out);
    }
}

impl<A: Flat, B: Flat, C: Flat> Flat for (A, B, C) {
    const TOLERANCE: f64 = A::TOLERANCE;
    fn flat(&self, out: &mut Vec<f64>) {
        self.0.flat(out);
        self.1.flat(out);
        self.2.flat(out);
    }
}

impl<A: Flat, B: Flat, C: Flat, D: Flat> Flat for (A, B, C, D) {
    const TOLERANCE: f64 = A::TOLERANCE;
    fn flat(&self, out: &mut Vec<f64>) {
        self.0.flat(out);
        self.1.flat(out);
        self.2.flat(out);
        self.3.flat(out);
    }
}

/// `max |got - want| / max(1, max |want|)`: the spec's relative measure,
/// and the tolerance for `T`.
fn relative_difference<T: Flat>(got: &T, want: &T) -> (f64, f64) {
    let (mut g, mut w) = (Vec::new(), Vec::new());
    got.flat(&mut g);
    want.flat(&mut w);
    assert_eq!(g.len(), w.len());
    let scale = w.iter().fold(1.0, |s: f64, x| s.max(x.abs()));
    let d = g
        .iter()
        .zip(&w)
        .fold(0.0, |m: f64, (a, b)| m.max((a - b).abs() / scale));
    (d, T::TOLERANCE)
}

/// A lane's result against the scalar function's: the same operations, with
/// `wide`'s vectorised sine and cosine where the scalar code takes `libm`'s
/// (a lone angle, a computed argument; within two units in the last place
/// of `libm`'s), so equal to a few units in the last place: 1e-13 relative
/// in `f64`, 1e-5 in `f32` (`rbdgen verify`'s lanes tolerances).
macro_rules! assert_close {
    ($got:expr, $want:expr, $($msg:tt)+) => {{
        let (d, tolerance) = relative_difference(&$got, &$want);
        assert!(d <= tolerance, "{}: {d:e} > {tolerance:e}", format!($($msg)+));
    }};
}

fn states<const N: usize>(n: usize, rng: &mut ChaCha8Rng) -> Vec<[f64; N]> {
    (0..n)
        .map(|_| std::array::from_fn(|_| rng.gen_range(-1.0..1.0)))
        .collect()
}

fn configurations<const NQ: usize>(
    urdf: &str,
    floating: bool,
    n: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<[f64; NQ]> {
    let model = common::load_model(urdf, floating);
    (0..n)
        .map(|_| common::random_q(&model, rng).try_into().unwrap())
        .collect()
}

#[test]
fn go2_z1_lanes_match_the_scalar_code() {
    use go2_z1::lanes::{self, Lanes, L, V};
    use go2_z1::{NQ, NV};
    let mut rng = ChaCha8Rng::seed_from_u64(0x1a9e5);
    let n = 3 * L + 3;
    let q: Vec<[f64; NQ]> = configurations("models/go2_z1.urdf", true, n, &mut rng);
    let v: Vec<[f64; NV]> = states(n, &mut rng);
    let a: Vec<[f64; NV]> = states(n, &mut rng);
    let damping: Vec<f64> = (0..n)
        .map(|k| if k % 2 == 0 { 0.0 } else { 1e-6 })
        .collect();

    let mut out = vec![[0.0; NV]; n];
    lanes::rnea_batch(&q, &v, &a, &mut out).unwrap();
    for k in 0..n {
        assert_close!(out[k], go2_z1::rnea(&q[k], &v[k], &a[k]), "rnea state {k}");
    }
    // NaN first: every entry of every state is written, the constant zeros
    // of `M` (its free-flyer block's) included.
    let mut out = vec![[[f64::NAN; NV]; NV]; n];
    lanes::crba_batch(&q, &mut out).unwrap();
    for k in 0..n {
        assert_close!(out[k], go2_z1::crba(&q[k]), "crba state {k}");
        assert_eq!(out[k][0][1], 0.0, "a constant zero of M, state {k}");
    }
    let mut out = vec![[0.0; NV]; n];
    lanes::aba_batch(&q, &v, &a, &mut out).unwrap();
    for k in 0..n {
        assert_close!(out[k], go2_z1::aba(&q[k], &v[k], &a[k]), "aba state {k}");
    }
    let mut out = vec![[[f64::NAN; NV]; NV]; n];
    lanes::minverse_batch(&q, &mut out).unwrap();
    for k in 0..n {
        assert_close!(out[k], go2_z1::minverse(&q[k]), "minverse state {k}");
    }
    let mut out = vec![0.0; n];
    lanes::kinetic_energy_batch(&q, &v, &mut out).unwrap();
    for k in 0..n {
        assert_close!(
            out[k],
            go2_z1::kinetic_energy(&q[k], &v[k]),
            "energy state {k}"
        );
    }
    let frame = go2_z1::Frame::GripperLink;
    let mut out = vec![[[0.0; 4]; 4]; n];
    lanes::frame_placement_batch(&q, frame, &mut out).unwrap();
    for k in 0..n {
        assert_close!(
            out[k],
            go2_z1::frame_placement(&q[k], frame),
            "placement state {k}"
        );
    }
    let mut out = vec![([0.0; NV], [0.0; go2_z1::NC]); n];
    lanes::contact_dynamics_batch(&q, &v, &a, &damping, &mut out).unwrap();
    for k in 0..n {
        let want = go2_z1::contact_dynamics(&q[k], &v[k], &a[k], damping[k]);
        assert_close!(out[k], want, "contact_dynamics state {k}");
    }
    let mut out = vec![[0.0; NQ]; n];
    lanes::integrate_batch(&q, &v, &mut out).unwrap();
    for k in 0..n {
        assert_close!(
            out[k],
            go2_z1::integrate(&q[k], &v[k]),
            "integrate state {k}"
        );
    }

    // The kernel on structure-of-arrays values, lane by lane.
    let group: [[f64; NQ]; L] = std::array::from_fn(|k| q[k]);
    let vg: [[f64; NV]; L] = std::array::from_fn(|k| v[k]);
    let ag: [[f64; NV]; L] = std::array::from_fn(|k| a[k]);
    let tau: [V; NV] = lanes::rnea(
        &Lanes::gather(&group),
        &Lanes::gather(&vg),
        &Lanes::gather(&ag),
    );
    for lane in 0..L {
        let want = go2_z1::rnea(&q[lane], &v[lane], &a[lane]);
        for i in 0..NV {
            assert_close!(tau[i][lane], want[i], "rnea lane {lane} entry {i}");
        }
    }
    // The array-of-structures wrapper: the same lanes, transposed.
    let aos = lanes::crba_aos(&group);
    for lane in 0..L {
        assert_close!(aos[lane], go2_z1::crba(&q[lane]), "crba_aos lane {lane}");
    }

    // An angle far beyond `TRIG_LIMIT` (where `wide`'s range reduction is
    // off) takes `libm`'s sine and cosine: its lane matches the scalar code.
    // (The scalar code's own large angles are checked against the runtime
    // in generated_dynamics.rs.)
    for far_angle in [5e11, 1e8 * lanes::TRIG_LIMIT] {
        let mut far = q[..L].to_vec();
        far[1][7] = far_angle;
        let mut out = vec![[0.0; NV]; L];
        lanes::rnea_batch(&far, &v[..L], &a[..L], &mut out).unwrap();
        for k in 0..L {
            let want = go2_z1::rnea(&far[k], &v[k], &a[k]);
            assert_close!(out[k], want, "far state {k}, angle {far_angle:e}");
        }
    }

    // Lengths that disagree are an error naming the argument, and nothing is written.
    let mut out = vec![[7.0; NV]; n];
    let err = lanes::rnea_batch(&q, &v[..n - 1], &a, &mut out).unwrap_err();
    assert_eq!((err.argument, err.len, err.expected), ("v", n - 1, n));
    assert!(out.iter().all(|o| o.iter().all(|&x| x == 7.0)));
    // A `std::error::Error`: `?` into a boxed error, as the guide's lanes snippet does.
    let mut boxed = || -> Result<(), Box<dyn std::error::Error>> {
        lanes::rnea_batch(&q, &v[..n - 1], &a, &mut out)?;
        Ok(())
    };
    assert_eq!(
        boxed().unwrap_err().to_string(),
        format!("`v` holds {} states, `out` {n}", n - 1)
    );
    let err = lanes::rnea_batch(&q, &v[..1], &a, &mut out).unwrap_err();
    assert_eq!(err.to_string(), format!("`v` holds 1 state, `out` {n}"));
}

#[test]
fn z1_lanes_of_derivatives_and_step_match_the_scalar_code() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xd3e1);
    {
        use z1_2::{lanes, NQ, NU, NV};
        let n = 5;
        let q: Vec<[f64; NQ]> = configurations("models/z1.urdf", false, n, &mut rng);
        let v: Vec<[f64; NV]> = states(n, &mut rng);
        let tau: Vec<[f64; NV]> = states(n, &mut rng);
        let u: Vec<[f64; NU]> = states(n, &mut rng);
        let h: Vec<f64> = (0..n).map(|k| 0.001 * (k + 1) as f64).collect();
        let mut out = vec![([[0.0; NV]; NV], [[0.0; NV]; NV], [[0.0; NV]; NV]); n];
        lanes::aba_derivatives_batch(&q, &v, &tau, &mut out).unwrap();
        for k in 0..n {
            assert_close!(
                out[k],
                z1_2::aba_derivatives(&q[k], &v[k], &tau[k]),
                "state {k}"
            );
        }
        let zero = (
            [0.0; NQ],
            [0.0; NV],
            [[0.0; 2 * NV]; 2 * NV],
            [[0.0; NU]; 2 * NV],
        );
        let mut out = vec![zero; n];
        lanes::step_linearization_batch(&q, &v, &u, &h, &mut out).unwrap();
        for k in 0..n {
            assert_close!(
                out[k],
                z1_2::step_linearization(&q[k], &v[k], &u[k], h[k]),
                "state {k}"
            );
        }
    }
    {
        use z1_8::{lanes, NQ, NV};
        let n = 11;
        let q: Vec<[f64; NQ]> = configurations("models/z1.urdf", false, n, &mut rng);
        let q2: Vec<[f64; NQ]> = configurations("models/z1.urdf", false, n, &mut rng);
        let v: Vec<[f64; NV]> = states(n, &mut rng);
        let a: Vec<[f64; NV]> = states(n, &mut rng);
        let mut out = vec![([[0.0; NV]; NV], [[0.0; NV]; NV], [[0.0; NV]; NV]); n];
        lanes::rnea_derivatives_batch(&q, &v, &a, &mut out).unwrap();
        for k in 0..n {
            assert_close!(
                out[k],
                z1_8::rnea_derivatives(&q[k], &v[k], &a[k]),
                "state {k}"
            );
        }
        let mut out = vec![[0.0; NV]; n];
        lanes::difference_batch(&q, &q2, &mut out).unwrap();
        for k in 0..n {
            assert_close!(out[k], z1_8::difference(&q[k], &q2[k]), "state {k}");
        }
    }
}

fn f32s<const N: usize>(states: Vec<[f64; N]>) -> Vec<[f32; N]> {
    states.iter().map(|s| s.map(|x| x as f32)).collect()
}

#[test]
fn z1_f32_lanes_match_the_scalar_code() {
    use z1_f32::lanes::{self, Lanes, L, V};
    use z1_f32::{Frame, NQ, NV};
    let mut rng = ChaCha8Rng::seed_from_u64(0xf32);
    let n = 2 * L + 5;
    let q: Vec<[f32; NQ]> = f32s(configurations("models/z1.urdf", false, n, &mut rng));
    let v: Vec<[f32; NV]> = f32s(states(n, &mut rng));
    let a: Vec<[f32; NV]> = f32s(states(n, &mut rng));
    let mut out = vec![[0.0; NV]; n];
    lanes::rnea_batch(&q, &v, &a, &mut out).unwrap();
    for k in 0..n {
        assert_close!(out[k], z1_f32::rnea(&q[k], &v[k], &a[k]), "rnea state {k}");
    }
    lanes::aba_batch(&q, &v, &a, &mut out).unwrap();
    for k in 0..n {
        assert_close!(out[k], z1_f32::aba(&q[k], &v[k], &a[k]), "aba state {k}");
    }
    let mut out = vec![[[0.0; 4]; 4]; n];
    lanes::frame_placement_batch(&q, Frame::Link06, &mut out).unwrap();
    for k in 0..n {
        let want = z1_f32::frame_placement(&q[k], Frame::Link06);
        assert_close!(out[k], want, "frame_placement state {k}");
    }
    // The kernel on one group, read lane by lane through `V`'s index.
    let group: [[f32; NQ]; L] = core::array::from_fn(|k| q[k]);
    let tau: [V; NV] = lanes::rnea(
        &Lanes::gather(&group),
        &Lanes::gather(&core::array::from_fn(|k| v[k])),
        &Lanes::gather(&core::array::from_fn(|k| a[k])),
    );
    for lane in 0..L {
        let want = z1_f32::rnea(&q[lane], &v[lane], &a[lane]);
        for i in 0..NV {
            assert_close!(tau[i][lane], want[i], "rnea lane {lane} entry {i}");
        }
    }
}

#[cfg(feature = "rayon")]
rbdgen::robot_dynamics!(
    mod z1_threads,
    "models/z1.urdf",
    lanes = 4,
    threads,
    frames = [link06],
    functions = [aba, frame_placement]
);

#[cfg(feature = "rayon")]
#[test]
fn batch_par_equals_batch_bit_for_bit() {
    use z1_threads::{lanes, Frame, NQ, NV};
    let mut rng = ChaCha8Rng::seed_from_u64(0x7e4d);
    // Empty, shorter than a lane group, non-multiples of L, and more states
    // than rayon has threads times L.
    // 2003 states are enough operations for two tasks of both functions
    // (`lanes::TASK_OPS`); the shorter batches run as one.
    for n in [0, 1, 3, 4, 9, 67, 2003] {
        let q: Vec<[f64; NQ]> = configurations("models/z1.urdf", false, n, &mut rng);
        let v: Vec<[f64; NV]> = states(n, &mut rng);
        let tau: Vec<[f64; NV]> = states(n, &mut rng);
        let mut serial = vec![[f64::NAN; NV]; n];
        let mut par = vec![[f64::NAN; NV]; n];
        lanes::aba_batch(&q, &v, &tau, &mut serial).unwrap();
        lanes::aba_batch_par(&q, &v, &tau, &mut par).unwrap();
        assert_eq!(
            par.iter().map(|o| o.map(f64::to_bits)).collect::<Vec<_>>(),
            serial
                .iter()
                .map(|o| o.map(f64::to_bits))
                .collect::<Vec<_>>(),
            "aba, {n} states"
        );
        for k in 0..n {
            assert_close!(
                par[k],
                z1_threads::aba(&q[k], &v[k], &tau[k]),
                "aba state {k} of {n}"
            );
        }
        let mut serial = vec![[[f64::NAN; 4]; 4]; n];
        let mut par = vec![[[f64::NAN; 4]; 4]; n];
        lanes::frame_placement_batch(&q, Frame::Link06, &mut serial).unwrap();
        lanes::frame_placement_batch_par(&q, Frame::Link06, &mut par).unwrap();
        assert_eq!(par, serial, "frame_placement, {n} states");
    }
    // Each task takes whole lane groups: the chunk is a multiple of L, at least
    // L; no more tasks than threads; a task below `TASK_OPS` operations only
    // when the batch is one task.
    for n in [0, 1, 4, 5, 64, 1001, 100_000] {
        for ops in [1, 1803, 100_000, 10_000_000] {
            let chunk = lanes::par_chunk(n, ops);
            assert!(
                chunk >= lanes::L && chunk % lanes::L == 0,
                "{n}, {ops}: {chunk}"
            );
            assert!(
                chunk * rayon::current_num_threads() >= n,
                "{n}, {ops}: {chunk}"
            );
            assert!(
                chunk >= n || chunk * ops >= lanes::TASK_OPS,
                "{n}, {ops}: {chunk}"
            );
        }
    }
    if rayon::current_num_threads() > 1 {
        assert!(
            lanes::par_chunk(2003, 576) < 2003,
            "2003 frame placements split"
        );
        assert!(
            lanes::par_chunk(64, 1803) >= 64,
            "64 z1 abas run as one task"
        );
    }
    // Lengths that disagree: an error naming the argument, nothing written.
    let n = 6;
    let q: Vec<[f64; NQ]> = configurations("models/z1.urdf", false, n, &mut rng);
    let v: Vec<[f64; NV]> = states(n, &mut rng);
    let mut out = vec![[7.0; NV]; n];
    let err = lanes::aba_batch_par(&q, &v, &v[..2], &mut out).unwrap_err();
    assert_eq!((err.argument, err.len, err.expected), ("tau", 2, n));
    assert!(out.iter().all(|o| o.iter().all(|&x| x == 7.0)));
}
