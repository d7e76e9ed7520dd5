// The lane type `V` and the `Lanes` trait of a generated `lanes` module,
// written once for every lane count and scalar type. `lanes_module` reads
// this file, drops its `use` declarations and puts the parameters in place of
// their placeholders:
//
// - `Real`: the scalar type (`f64` or `f32`);
// - `Wide`: `wide`'s vector type (`wide::f64x4`), and `Wide` between
//   backquotes in a doc comment its name;
// - `LANES`: the number of lanes; `TRIG_BOUND`: the value of `TRIG_LIMIT`;
//   `TRIG_LANES`: the angles of a `sincos4` call;
// - `if STD { A } else { B }`: `A` with `std`, `B` without;
// - with `f32`, the `libm` names of the math functions (`sin` → `sinf`)
//   wherever they are not a method of `wide`'s vector (after a `.`).
//
// The tests of `lanes::check` compile it with each lane count of both
// scalar types (clippy too), the placeholders defined around it.

use super::*;

/// The number of lanes.
pub const L: usize = LANES;

/// The largest `|x|` whose `sin`, `cos` and `sincos` come from `wide`'s vectorised
/// polynomial (within two units in the last place of `libm`'s up to here, measured);
/// a call with any lane beyond it takes `libm`'s, lane by lane.
pub const TRIG_LIMIT: Real = TRIG_BOUND;

/// `L` values side by side, one per state: a SIMD vector (the `wide` crate's `Wide`, vector registers of the target's widest matching kind); arithmetic acts
/// lane by lane. Index it (`v[k]`) or convert with [`V::new`] / [`V::to_array`].
/// The default is zero in every lane.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(transparent)]
pub struct V(Wide);

impl V {
    /// The same value in every lane.
    #[inline(always)]
    pub const fn splat(x: Real) -> V {
        V(Wide::splat(x))
    }

    /// The lanes of `x`, lane `k` from `x[k]`.
    #[inline(always)]
    pub const fn new(x: [Real; L]) -> V {
        V(Wide::new(x))
    }

    /// The lanes as an array.
    #[inline(always)]
    pub const fn to_array(self) -> [Real; L] {
        self.0.to_array()
    }

    #[inline(always)]
    fn map(self, f: impl Fn(Real) -> Real) -> V {
        let x = self.to_array();
        V::new(core::array::from_fn(|k| f(x[k])))
    }

    /// Whether every lane is within [`TRIG_LIMIT`] (NaN counts as within).
    #[inline(always)]
    fn trig_in_range(x: V) -> bool {
        !x.0.abs().simd_gt(Wide::splat(TRIG_LIMIT)).any()
    }

    /// Sine of every lane at once: `wide`'s vectorised polynomial, within two units
    /// in the last place of `libm`'s up to [`TRIG_LIMIT`]; beyond it, `libm`'s
    /// lane by lane.
    #[inline(always)]
    pub fn sin(x: V) -> V {
        if V::trig_in_range(x) {
            V(x.0.sin())
        } else {
            x.map(libm::sin)
        }
    }

    /// Cosine of every lane at once (as [`V::sin`]).
    #[inline(always)]
    pub fn cos(x: V) -> V {
        if V::trig_in_range(x) {
            V(x.0.cos())
        } else {
            x.map(libm::cos)
        }
    }

    /// Sine and cosine of every lane at once (as [`V::sin`]).
    #[inline(always)]
    pub fn sincos(x: V) -> (V, V) {
        if V::trig_in_range(x) {
            let (s, c) = x.0.sin_cos();
            (V(s), V(c))
        } else {
            let x = x.to_array();
            let (s, c): ([Real; L], [Real; L]) = (
                core::array::from_fn(|k| libm::sincos(x[k]).0),
                core::array::from_fn(|k| libm::sincos(x[k]).1),
            );
            (V::new(s), V::new(c))
        }
    }

    /// Square root, lane by lane.
    #[inline(always)]
    pub fn sqrt(x: V) -> V {
        // With std the vector instruction; without it `libm`'s. Both are
        // correctly rounded, so lanes equal scalars bit for bit.
        if STD {
            V(x.0.sqrt())
        } else {
            x.map(libm::sqrt)
        }
    }

    /// The four-quadrant arc tangent of `y / x`, lane by lane (`libm`).
    #[inline(always)]
    pub fn atan2(y: V, x: V) -> V {
        let (y, x) = (y.to_array(), x.to_array());
        V::new(core::array::from_fn(|k| libm::atan2(y[k], x[k])))
    }

    /// `a` where `c > 0`, else `b`, lane by lane (a blend).
    #[inline(always)]
    pub fn select(c: V, a: V, b: V) -> V {
        V(c.0.simd_gt(Wide::ZERO).select(a.0, b.0))
    }
}

impl core::ops::Index<usize> for V {
    type Output = Real;
    #[inline(always)]
    fn index(&self, k: usize) -> &Real {
        &self.0.as_array()[k]
    }
}

impl core::ops::IndexMut<usize> for V {
    #[inline(always)]
    fn index_mut(&mut self, k: usize) -> &mut Real {
        &mut self.0.as_mut_array()[k]
    }
}

impl core::ops::Add for V {
    type Output = V;
    #[inline(always)]
    fn add(self, o: V) -> V {
        V(self.0 + o.0)
    }
}

impl core::ops::Sub for V {
    type Output = V;
    #[inline(always)]
    fn sub(self, o: V) -> V {
        V(self.0 - o.0)
    }
}

impl core::ops::Mul for V {
    type Output = V;
    #[inline(always)]
    fn mul(self, o: V) -> V {
        V(self.0 * o.0)
    }
}

impl core::ops::Div for V {
    type Output = V;
    #[inline(always)]
    fn div(self, o: V) -> V {
        V(self.0 / o.0)
    }
}

impl core::ops::Neg for V {
    type Output = V;
    #[inline(always)]
    fn neg(self) -> V {
        V(-self.0)
    }
}

/// `a * b + c` lane by lane: the sums of products the emitter fused.
#[allow(dead_code)]
#[inline(always)]
fn mul_add(a: V, b: V, c: V) -> V {
    // With std the FMA instruction where the target has one, as in the
    // scalar code; without it a product and a sum.
    if STD {
        #[cfg(target_feature = "fma")]
        {
            V(a.0.mul_add(b.0, c.0))
        }
        #[cfg(not(target_feature = "fma"))]
        {
            a * b + c
        }
    } else {
        a * b + c
    }
}

/// The sines and cosines of four values: the scalar code's `sincos4`, each
/// of them already a vector of `L` lanes.
#[allow(dead_code)]
#[inline(always)]
fn sincos4(x: [V; TRIG_LANES]) -> ([V; TRIG_LANES], [V; TRIG_LANES]) {
    let sc = x.map(V::sincos);
    (sc.map(|p| p.0), sc.map(|p| p.1))
}

/// Values that move between `L` states one per entry (array of structures)
/// and one state per lane.
pub trait Lanes: Sized {
    /// One state's value.
    type State: Copy;
    /// The lanes of `L` states.
    fn gather(states: &[Self::State; L]) -> Self;
    /// The state of lane `k`.
    fn lane(&self, k: usize) -> Self::State;
    /// The `L` states of the lanes, each built in place lane by lane
    /// ([`Lanes::lane`]).
    #[inline(always)]
    fn scatter(&self) -> [Self::State; L] {
        core::array::from_fn(|k| self.lane(k))
    }
    /// Writes lane `k` into one state's value (no intermediate copy).
    fn write_lane(&self, k: usize, state: &mut Self::State);
    /// Zero in every lane: a batch's result before its first kernel call.
    fn zero() -> Self;
    /// Writes every lane into its state, lane `k` into `states[k]`.
    #[inline(always)]
    fn write_lanes(&self, states: [&mut Self::State; L]) {
        for (k, state) in states.into_iter().enumerate() {
            self.write_lane(k, state);
        }
    }
    /// [`Lanes::write_lanes`] of consecutive values: `xs[i]` into
    /// `states[k][i]` (the slices as long as `xs`).
    #[inline(always)]
    fn write_run(xs: &[Self], mut states: [&mut [Self::State]; L]) {
        for (i, x) in xs.iter().enumerate() {
            x.write_lanes(states.each_mut().map(|s| &mut s[i]));
        }
    }
}

impl Lanes for V {
    type State = Real;
    #[inline(always)]
    fn gather(states: &[Real; L]) -> V {
        V::new(*states)
    }
    #[inline(always)]
    fn lane(&self, k: usize) -> Real {
        self[k]
    }
    #[inline(always)]
    fn scatter(&self) -> [Real; L] {
        self.to_array()
    }
    #[inline(always)]
    fn write_lane(&self, k: usize, state: &mut Real) {
        *state = self[k];
    }
    #[inline(always)]
    fn zero() -> V {
        V::splat(0.0)
    }
    /// `L` values at a time transposed in registers (`wide`'s
    /// `transpose`), each state's `L` consecutive values stored
    /// together; the rest lane by lane.
    #[inline(always)]
    fn write_run(xs: &[V], mut states: [&mut [Real]; L]) {
        let mut blocks = xs.chunks_exact(L);
        let mut at = 0;
        for block in blocks.by_ref() {
            let t = Wide::transpose(core::array::from_fn(|k| block[k].0));
            for (state, t) in states.iter_mut().zip(t) {
                state[at..at + L].copy_from_slice(&t.to_array());
            }
            at += L;
        }
        for x in blocks.remainder() {
            x.write_lanes(states.each_mut().map(|s| &mut s[at]));
            at += 1;
        }
    }
}

impl<T: Lanes, const N: usize> Lanes for [T; N] {
    type State = [T::State; N];
    #[inline(always)]
    fn gather(states: &[[T::State; N]; L]) -> Self {
        core::array::from_fn(|i| T::gather(&core::array::from_fn(|k| states[k][i])))
    }
    #[inline(always)]
    fn lane(&self, k: usize) -> [T::State; N] {
        core::array::from_fn(|i| self[i].lane(k))
    }
    #[inline(always)]
    fn write_lane(&self, k: usize, state: &mut [T::State; N]) {
        for (x, s) in self.iter().zip(state.iter_mut()) {
            x.write_lane(k, s);
        }
    }
    #[inline(always)]
    fn zero() -> Self {
        core::array::from_fn(|_| T::zero())
    }
    #[inline(always)]
    fn write_lanes(&self, states: [&mut [T::State; N]; L]) {
        T::write_run(self, states.map(|s| &mut s[..]));
    }
}
