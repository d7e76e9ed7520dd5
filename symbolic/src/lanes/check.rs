//! The support files of the generated `lanes` module compiled and run: with
//! 4 lanes of `f64` and `std` here, where they are modules of their own (and
//! formatted by `cargo fmt`), and with every other lane count of `wide` for
//! both scalar types in [`parameter_set!`]'s modules. The placeholders the
//! files' opening comment lists are defined around them; the tests compare
//! what `lanes_module` makes of them.

use crate::emit::TRIG_LANES;
use crate::ffi::pretty;
use wide::f64x4 as Wide;

type Real = f64;
const LANES: usize = 4;
const STD: bool = true;
const TRIG_BOUND: Real = 1e8;

#[path = "support.rs"]
pub(super) mod lanes;

#[path = "batch.rs"]
mod batch;

#[path = "threads.rs"]
mod threads;

#[path = "tuples.rs"]
mod tuples;

/// `f32`'s `libm` functions under the `f64` names that support.rs calls
/// (`lanes_module` renames them).
mod libm_f32 {
    pub use libm::{atan2f as atan2, cosf as cos, sincosf as sincos, sinf as sin, sqrtf as sqrt};
}

/// Runs the support library of one parameter set: the math functions
/// against `libm` lane by lane, the transpositions, the batch error and the
/// split into tasks.
macro_rules! exercise {
    () => {{
        use lanes::{Lanes, L, V};
        let x: [Real; L] = core::array::from_fn(|k| k as Real * 0.75 - 1.0);
        let v = V::new(x);
        let (s, c) = V::sincos(v);
        let close = |a: Real, b: Real| (a - b).abs() <= 4.0 * Real::EPSILON;
        for k in 0..L {
            assert!(close(V::sin(v)[k], libm::sin(x[k])), "{k}");
            assert!(close(V::cos(v)[k], libm::cos(x[k])), "{k}");
            assert!(close(s[k], libm::sin(x[k])) && close(c[k], libm::cos(x[k])));
            assert_eq!(V::sqrt(v * v)[k], libm::sqrt(x[k] * x[k]));
            assert_eq!(V::atan2(v, V::splat(2.0))[k], libm::atan2(x[k], 2.0));
            let chosen = if x[k] > 0.0 { 1.0 } else { -1.0 };
            assert_eq!(V::select(v, V::splat(1.0), -V::splat(1.0))[k], chosen);
        }
        // Beyond `TRIG_LIMIT`, `libm`'s sine.
        let far = 2.0 * lanes::TRIG_LIMIT;
        assert_eq!(V::sin(V::splat(far))[0], libm::sin(far));
        assert_eq!(
            (v - v) / V::splat(1.0) + V::splat(0.0),
            <V as Lanes>::zero()
        );
        // A pair of an array and a value, gathered and scattered.
        let states: [([Real; 2], Real); L] =
            core::array::from_fn(|k| ([k as Real, 1.0], -(k as Real)));
        let gathered = <([V; 2], V)>::gather(&states);
        assert_eq!(gathered.scatter(), states);
        let mut out = [([0.0; 2], 0.0); L];
        gathered.write_lanes(out.each_mut());
        assert_eq!(out, states);
        // A run of `L + 1` values: one transposed block and a lane-wise rest.
        let run: Vec<V> = (0..=L).map(|i| V::splat(i as Real) + v).collect();
        let mut rows = [[0.0; L + 1]; L];
        V::write_run(&run, rows.each_mut().map(|r| &mut r[..]));
        assert!(rows
            .iter()
            .enumerate()
            .all(|(k, r)| r.iter().enumerate().all(|(i, y)| *y == i as Real + x[k])));
        let triple = <(V, V, [V; 1])>::gather(&core::array::from_fn(|k| (x[k], 1.0, [2.0])));
        assert_eq!(triple.lane(1), (x[1], 1.0, [2.0]));
        let error = batch::LengthMismatch {
            argument: "q",
            len: 1,
            expected: 3,
        };
        assert_eq!(error.to_string(), "`q` holds 1 state, `out` 3");
        assert_eq!(threads::par_chunk(10, 1), 10usize.next_multiple_of(L));
        assert_eq!(threads::TASK_OPS, 400_000);
    }};
}

#[test]
fn f64x4_std() {
    exercise!();
}

/// A module of the support files for `$real` in `$lanes` lanes of `wide`'s
/// `$wide`, with or without `std`, its `libm` functions from `$libm`.
macro_rules! parameter_set {
    ($set:ident, $real:ident, $wide:ident, $lanes:literal, $std:literal, $bound:literal, $libm:path) => {
        mod $set {
            use crate::emit::TRIG_LANES;
            use wide::$wide as Wide;
            use $libm as libm;

            type Real = $real;
            const LANES: usize = $lanes;
            const STD: bool = $std;
            const TRIG_BOUND: Real = $bound;

            pub mod lanes {
                include!("support.rs");
            }
            mod batch {
                include!("batch.rs");
            }
            mod threads {
                include!("threads.rs");
            }
            mod tuples {
                include!("tuples.rs");
            }

            #[test]
            fn runs() {
                exercise!();
            }
        }
    };
}

parameter_set!(f64x2, f64, f64x2, 2, false, 1e8, ::libm);
parameter_set!(f64x8, f64, f64x8, 8, true, 1e8, ::libm);
parameter_set!(f32x4, f32, f32x4, 4, false, 1e4, super::libm_f32);
parameter_set!(f32x8, f32, f32x8, 8, true, 1e4, super::libm_f32);
parameter_set!(f32x16, f32, f32x16, 16, false, 1e4, super::libm_f32);

/// tuples.rs holds `tuple_impl`'s pairs and triples: what compiles above
/// is what the generator writes.
#[test]
fn tuple_impls_are_the_compiled_ones() {
    let file = syn::parse_file(include_str!("tuples.rs")).unwrap();
    let impls = file
        .items
        .iter()
        .filter(|item| !matches!(item, syn::Item::Use(_)));
    let generated = [super::tuple_impl(2), super::tuple_impl(3)];
    assert_eq!(
        pretty(quote::quote!(#(#impls)*)),
        pretty(quote::quote!(#(#generated)*))
    );
}

/// Every placeholder is replaced, in each parameter set the generator
/// accepts; `std` picks its branch, `f32` its math names.
#[test]
fn placeholders_are_replaced() {
    use super::{support_items, Params, BATCH, SUPPORT, THREADS};
    use crate::emit::ScalarType;
    use crate::options::lane_widths;
    for scalar in ScalarType::ALL {
        for &l in lane_widths(scalar) {
            for std in [false, true] {
                let params = Params { l, scalar, std };
                let text: String = [SUPPORT, BATCH, THREADS]
                    .iter()
                    .map(|file| pretty(support_items(file, &params)))
                    .collect();
                for placeholder in ["Real", "Wide", "LANES", "STD", "TRIG_BOUND", "TRIG_LANES"] {
                    assert!(!text.contains(placeholder), "{placeholder}");
                }
                let wide = format!("wide::{}x{l}", scalar.name());
                assert!(text.contains(&format!("pub struct V({wide});")));
                assert!(text.contains(&format!("pub const L: usize = {l};")));
                assert_eq!(text.contains("V(x.0.sqrt())"), std);
                let sqrt = scalar.math_name("sqrt");
                assert_eq!(text.contains(&format!("x.map(libm::{sqrt})")), !std);
                let sin = scalar.math_name("sin");
                assert!(text.contains(&format!("pub fn {sin}(x: V) -> V")));
                assert!(text.contains(&format!("(as [`V::{sin}`])")));
                assert!(text.contains("V(x.0.sin())"));
            }
        }
    }
}
