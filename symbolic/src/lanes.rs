//! Many states per call: the `lanes` module of a generated module (the lane
//! type `V`, the `Lanes` transposition trait, the batch error) and each
//! function's array-of-structures and batch wrappers around its lane kernel.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};
use syn::Index;

use crate::api::{dim_tokens, output_type, trig_limit};
use crate::emit::{ScalarType, TRIG_LANES};
use crate::functions::{Dim, Output};

/// `Lanes` for a tuple of `n` results (the outputs of a function that
/// returns a tuple): each part gathered and scattered on its own.
fn tuple_impl(n: usize) -> TokenStream {
    let tys: Vec<Ident> = (0..n)
        .map(|i| format_ident!("{}", (b'A' + i as u8) as char))
        .collect();
    let idx: Vec<Index> = (0..n).map(Index::from).collect();
    quote! {
        impl<#(#tys: Lanes),*> Lanes for (#(#tys),*) {
            type State = (#(#tys::State),*);
            fn gather(states: &[Self::State; L]) -> Self {
                (
                    #(#tys::gather(&core::array::from_fn(|k| states[k].#idx)),)*
                )
            }
            fn lane(&self, k: usize) -> Self::State {
                (#(self.#idx.lane(k)),*)
            }
            fn write_lane(&self, k: usize, state: &mut Self::State) {
                #(self.#idx.write_lane(k, &mut state.#idx);)*
            }
            fn zero() -> Self {
                (#(#tys::zero()),*)
            }
            #[inline(always)]
            fn write_lanes(&self, mut states: [&mut Self::State; L]) {
                #(self.#idx.write_lanes(states.each_mut().map(|s| &mut s.#idx));)*
            }
        }
    }
}

/// The `lanes` module: the lane type `V` (a `wide` SIMD vector of `L` values
/// of the scalar type, one state per lane), the `Lanes` transposition trait,
/// the batch error, the split of a batch across threads (with `threads`), and
/// the functions' lane items.
pub(crate) fn lanes_module(
    l: usize,
    scalar: ScalarType,
    std: bool,
    threads: bool,
    tuple_arity: usize,
    items: &[TokenStream],
) -> TokenStream {
    let ty = scalar.ty();
    let tuple_impls = (2..=tuple_arity.max(4)).map(tuple_impl);
    // One of `lane_widths(scalar)`, checked by `generate`.
    let w = format_ident!("{}x{l}", scalar.name());
    let v_doc = format!(
        " `L` values side by side, one per state: a SIMD vector (the `wide` crate's `{w}`, \
         vector registers of the target's widest matching kind); arithmetic acts"
    );
    let l = Literal::usize_unsuffixed(l);
    let trig_limit = trig_limit(scalar);
    let trig_lanes = Literal::usize_unsuffixed(TRIG_LANES);
    let f = |name: &str| scalar.math_name(name);
    let (sin, cos, sincos, sqrt, atan2) = (f("sin"), f("cos"), f("sincos"), f("sqrt"), f("atan2"));
    let cos_doc = format!(" Cosine of every lane at once (as [`V::{sin}`]).");
    let sincos_doc = format!(" Sine and cosine of every lane at once (as [`V::{sin}`]).");
    let par_chunk = threads.then(|| {
        quote! {
            /// About the fewest operations a task of a `NAME_batch_par` function runs (the
            /// last task, shortened to whole groups of `L`, can fall a few states short). Waking a
            /// pool thread costs microseconds: on two cores, 64 states of Go2+Z1's `aba`
            /// (400 000 operations) ran slower in two tasks than in one, 64 of its
            /// `rnea_derivatives` (860 000) 1.5 times faster.
            pub const TASK_OPS: usize = 400_000;

            /// States per task of a `NAME_batch_par` function of `ops` operations per
            /// state: `n` split evenly over rayon's threads but into no more tasks than
            /// `n * ops / TASK_OPS`, rounded up to whole groups of `L` (at least one
            /// group), so that only the last task has a scalar tail. At least `n` (one
            /// task, run on the calling thread) when the batch is too small to split.
            pub fn par_chunk(n: usize, ops: usize) -> usize {
                let tasks = (n.saturating_mul(ops) / TASK_OPS).clamp(1, rayon::current_num_threads());
                n.div_ceil(tasks).next_multiple_of(L).max(L)
            }
        }
    });
    // With std the square root is the vector instruction and a fused
    // multiply-add the FMA instruction where the target has one, as in the
    // scalar code; without it `libm`'s square root and a product and a sum.
    // Both square roots are correctly rounded, so lanes equal scalars bit for bit.
    let sqrt_body = if std {
        quote!(V(x.0.sqrt()))
    } else {
        quote!(x.map(libm::#sqrt))
    };
    let fma_body = if std {
        quote! {
            #[cfg(target_feature = "fma")]
            {
                V(a.0.mul_add(b.0, c.0))
            }
            #[cfg(not(target_feature = "fma"))]
            {
                a * b + c
            }
        }
    } else {
        quote!(a * b + c)
    };
    let ops = [
        (quote!(Add), quote!(add), quote!(+)),
        (quote!(Sub), quote!(sub), quote!(-)),
        (quote!(Mul), quote!(mul), quote!(*)),
        (quote!(Div), quote!(div), quote!(/)),
    ];
    let op_impls = ops.iter().map(|(tr, method, op)| {
        quote! {
            impl core::ops::#tr for V {
                type Output = V;
                #[inline(always)]
                fn #method(self, o: V) -> V {
                    V(self.0 #op o.0)
                }
            }
        }
    });
    quote! {
        /// Every function on `L` states at once: one state per lane of the values
        /// (structure of arrays). Each kernel performs the scalar function's operations
        /// lane by lane (sines and cosines from `wide`'s vectorised polynomial, within two
        /// units in the last place of `libm`'s), so its results match the scalar function's on
        /// each lane to a few units in the last place; `NAME_aos`
        /// takes `L` states one per entry, `NAME_batch` any number of them.
        pub mod lanes {
            #![allow(clippy::all, clippy::pedantic, clippy::nursery, non_snake_case, dead_code)]
            use super::*;

            /// The number of lanes.
            pub const L: usize = #l;

            /// The largest `|x|` whose `sin`, `cos` and `sincos` come from `wide`'s vectorised
            /// polynomial (within two units in the last place of `libm`'s up to here, measured);
            /// a call with any lane beyond it takes `libm`'s, lane by lane.
            pub const TRIG_LIMIT: #ty = #trig_limit;

            #[doc = #v_doc]
            /// lane by lane. Index it (`v[k]`) or convert with [`V::new`] / [`V::to_array`].
            /// The default is zero in every lane.
            #[derive(Clone, Copy, Debug, Default, PartialEq)]
            #[repr(transparent)]
            pub struct V(wide::#w);

            impl V {
                /// The same value in every lane.
                #[inline(always)]
                pub const fn splat(x: #ty) -> V {
                    V(wide::#w::splat(x))
                }

                /// The lanes of `x`, lane `k` from `x[k]`.
                #[inline(always)]
                pub const fn new(x: [#ty; L]) -> V {
                    V(wide::#w::new(x))
                }

                /// The lanes as an array.
                #[inline(always)]
                pub const fn to_array(self) -> [#ty; L] {
                    self.0.to_array()
                }

                #[inline(always)]
                fn map(self, f: impl Fn(#ty) -> #ty) -> V {
                    let x = self.to_array();
                    V::new(core::array::from_fn(|k| f(x[k])))
                }

                /// Whether every lane is within [`TRIG_LIMIT`] (NaN counts as within).
                #[inline(always)]
                fn trig_in_range(x: V) -> bool {
                    !x.0.abs().simd_gt(wide::#w::splat(TRIG_LIMIT)).any()
                }

                /// Sine of every lane at once: `wide`'s vectorised polynomial, within two units
                /// in the last place of `libm`'s up to [`TRIG_LIMIT`]; beyond it, `libm`'s
                /// lane by lane.
                #[inline(always)]
                pub fn #sin(x: V) -> V {
                    if V::trig_in_range(x) {
                        V(x.0.sin())
                    } else {
                        x.map(libm::#sin)
                    }
                }

                #[doc = #cos_doc]
                #[inline(always)]
                pub fn #cos(x: V) -> V {
                    if V::trig_in_range(x) {
                        V(x.0.cos())
                    } else {
                        x.map(libm::#cos)
                    }
                }

                #[doc = #sincos_doc]
                #[inline(always)]
                pub fn #sincos(x: V) -> (V, V) {
                    if V::trig_in_range(x) {
                        let (s, c) = x.0.sin_cos();
                        (V(s), V(c))
                    } else {
                        let x = x.to_array();
                        let (s, c): ([#ty; L], [#ty; L]) = (
                            core::array::from_fn(|k| libm::#sincos(x[k]).0),
                            core::array::from_fn(|k| libm::#sincos(x[k]).1),
                        );
                        (V::new(s), V::new(c))
                    }
                }

                /// Square root, lane by lane.
                #[inline(always)]
                pub fn #sqrt(x: V) -> V {
                    #sqrt_body
                }

                /// The four-quadrant arc tangent of `y / x`, lane by lane (`libm`).
                #[inline(always)]
                pub fn #atan2(y: V, x: V) -> V {
                    let (y, x) = (y.to_array(), x.to_array());
                    V::new(core::array::from_fn(|k| libm::#atan2(y[k], x[k])))
                }

                /// `a` where `c > 0`, else `b`, lane by lane (a blend).
                #[inline(always)]
                pub fn select(c: V, a: V, b: V) -> V {
                    V(c.0.simd_gt(wide::#w::ZERO).select(a.0, b.0))
                }
            }

            impl core::ops::Index<usize> for V {
                type Output = #ty;
                #[inline(always)]
                fn index(&self, k: usize) -> &#ty {
                    &self.0.as_array()[k]
                }
            }

            impl core::ops::IndexMut<usize> for V {
                #[inline(always)]
                fn index_mut(&mut self, k: usize) -> &mut #ty {
                    &mut self.0.as_mut_array()[k]
                }
            }

            #(#op_impls)*

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
                #fma_body
            }

            /// The sines and cosines of four values: the scalar code's `sincos4`, each
            /// of them already a vector of `L` lanes.
            #[allow(dead_code)]
            #[inline(always)]
            fn sincos4(x: [V; #trig_lanes]) -> ([V; #trig_lanes], [V; #trig_lanes]) {
                let sc = x.map(V::#sincos);
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
                type State = #ty;
                #[inline(always)]
                fn gather(states: &[#ty; L]) -> V {
                    V::new(*states)
                }
                #[inline(always)]
                fn lane(&self, k: usize) -> #ty {
                    self[k]
                }
                #[inline(always)]
                fn scatter(&self) -> [#ty; L] {
                    self.to_array()
                }
                #[inline(always)]
                fn write_lane(&self, k: usize, state: &mut #ty) {
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
                fn write_run(xs: &[V], mut states: [&mut [#ty]; L]) {
                    let mut blocks = xs.chunks_exact(L);
                    let mut at = 0;
                    for block in blocks.by_ref() {
                        let t = wide::#w::transpose(core::array::from_fn(|k| block[k].0));
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

            #(#tuple_impls)*

            /// A batch argument whose length is not the number of results asked for.
            #[derive(Clone, Copy, Debug, PartialEq, Eq)]
            pub struct LengthMismatch {
                /// The argument's name.
                pub argument: &'static str,
                /// Its length.
                pub len: usize,
                /// `out.len()`.
                pub expected: usize,
            }

            impl core::fmt::Display for LengthMismatch {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    write!(
                        f,
                        "`{}` holds {} state{}, `out` {}",
                        self.argument,
                        self.len,
                        if self.len == 1 { "" } else { "s" },
                        self.expected
                    )
                }
            }

            // `core::error::Error`: `?` in a function returning
            // `Result<_, Box<dyn std::error::Error>>`, with or without `std`.
            impl core::error::Error for LengthMismatch {}

            #par_chunk

            #(#items)*
        }
    }
}

/// `NAME_aos` (one state per array entry, `L` of them, transposed in and out
/// of the lanes), `NAME_batch` (any number of states: full groups of `L`
/// through the lanes, the rest through the scalar function) and, with
/// `threads`, `NAME_batch_par` (the batch split across rayon's threads) of a
/// lanes kernel.
pub(crate) fn lane_wrappers(
    name: &str,
    args: &[(&str, Dim)],
    output: &Output,
    per_frame: bool,
    scalar: ScalarType,
    threads: bool,
    ops: usize,
) -> TokenStream {
    let ty = scalar.ty();
    let ops = Literal::usize_unsuffixed(ops);
    let kernel = Ident::new(name, Span::call_site());
    let aos = format_ident!("{name}_aos");
    let batch = format_ident!("{name}_batch");
    let each = format_ident!("{name}_each");
    let into = format_ident!("{name}_into");
    let par = format_ident!("{name}_batch_par");
    let names: Vec<Ident> = args
        .iter()
        .map(|(n, _)| Ident::new(n, Span::call_site()))
        .collect();
    // One state's type of each argument (`[f64; NQ]`, `f64`, ...).
    let state_ty: Vec<TokenStream> = args
        .iter()
        .map(|(_, d)| match d {
            Dim::Wrenches => quote!([[#ty; 6]; NJOINTS]),
            Dim::Parameters => quote!([[#ty; 10]; NPARAMETERS]),
            Dim::Placement => quote!([[#ty; 4]; 4]),
            Dim::Scalar => quote!(#ty),
            _ => {
                let d = dim_tokens(*d);
                quote!([#ty; #d])
            }
        })
        .collect();
    let ret = output_type(output, &ty);
    let lanes_ret = output_type(output, &quote!(V));
    let (frame_param, frame_arg) = if per_frame {
        (Some(quote!(frame: Frame)), Some(quote!(frame)))
    } else {
        (None, None)
    };
    let frame_comma = per_frame.then(|| quote!(frame: Frame,));
    let frame_arg_comma = per_frame.then(|| quote!(frame,));
    // A scalar argument is passed by value, the others by reference.
    let by_value: Vec<bool> = args.iter().map(|(_, d)| *d == Dim::Scalar).collect();
    let gathered = names.iter().zip(&by_value).map(|(n, &v)| {
        if v {
            quote!(Lanes::gather(#n))
        } else {
            quote!(&Lanes::gather(#n))
        }
    });
    let one = names
        .iter()
        .zip(&by_value)
        .map(|(n, &v)| if v { quote!(#n[k]) } else { quote!(&#n[k]) });
    // A group of `L` states of each argument, gathered into lanes.
    let group = names.iter().zip(&by_value).map(|(n, &v)| {
        let lanes = quote!(Lanes::gather(&core::array::from_fn(|j| #n[c + j])));
        if v {
            lanes
        } else {
            quote!(&#lanes)
        }
    });
    let checks: Vec<TokenStream> = names.iter().map(|n| {
        let text = n.to_string();
        quote! {
            if #n.len() != out.len() {
                return Err(LengthMismatch { argument: #text, len: #n.len(), expected: out.len() });
            }
        }
    }).collect();
    let aos_doc = format!(
        " [`{name}`] on `L` states given one per entry (array of structures): transposes them \
         into lanes, runs the kernel, and transposes the results back."
    );
    let batch_doc = [
        format!(
            " [`super::{name}`] on every state of the slices, one result per state in `out`: full \
             groups of `L` states gathered into lanes, through the kernel [`{name}`] and \
             transposed back `L` values at a time, the remaining `< L` through the scalar function. The scalar function's numbers, state by state, to a few units in the last place."
        ),
        String::new(),
        " # Errors".to_string(),
        " [`LengthMismatch`] when an argument's length differs from `out.len()`; nothing is \
         written then."
            .to_string(),
    ];
    let each_doc =
        format!(" [`{batch}`] after its length checks: every slice holds `out.len()` states.");
    let par_fn = threads.then(|| {
        let par_doc = [
            format!(
                " [`{batch}`] split across rayon's thread pool: tasks of [`par_chunk`]`(out.len(), \
                 {ops})` states ({ops} operations per state; whole groups of `L`, the scalar tail \
                 in the last task), each running [`{batch}`]'s loop on its slices, the first on \
                 the calling thread (`rayon::in_place_scope`). A batch too small to split runs \
                 on the calling thread alone. The same numbers as [`{batch}`], bit for bit."
            ),
            String::new(),
            " # Errors".to_string(),
            " [`LengthMismatch`] when an argument's length differs from `out.len()`; nothing is \
             written then."
                .to_string(),
        ];
        let parts = names.iter().map(|n| quote!(&#n[s..e]));
        quote! {
            #(#[doc = #par_doc])*
            pub fn #par(
                #(#names: &[#state_ty],)*
                #frame_comma
                out: &mut [#ret],
            ) -> Result<(), LengthMismatch> {
                #(#checks)*
                let chunk = par_chunk(out.len(), #ops);
                if chunk >= out.len() {
                    #each(#(#names,)* #frame_arg_comma out);
                    return Ok(());
                }
                // The calling thread runs the first task itself rather than
                // waiting for the pool.
                let task = |i: usize, out: &mut [#ret]| {
                    let (s, e) = (i * chunk, i * chunk + out.len());
                    #each(#(#parts,)* #frame_arg_comma out)
                };
                rayon::in_place_scope(|scope| {
                    let mut tasks = out.chunks_mut(chunk).enumerate();
                    let first = tasks.next();
                    for (i, out) in tasks {
                        scope.spawn(move |_| task(i, out));
                    }
                    if let Some((i, out)) = first {
                        task(i, out);
                    }
                });
                Ok(())
            }
        }
    });
    quote! {
        #[doc = #aos_doc]
        pub fn #aos(#(#names: &[#state_ty; L],)* #frame_param) -> [#ret; L] {
            Lanes::scatter(&#kernel(#(#gathered,)* #frame_arg))
        }

        #(#[doc = #batch_doc])*
        pub fn #batch(
            #(#names: &[#state_ty],)*
            #frame_comma
            out: &mut [#ret],
        ) -> Result<(), LengthMismatch> {
            #(#checks)*
            #each(#(#names,)* #frame_arg_comma out);
            Ok(())
        }

        #[doc = #each_doc]
        fn #each(#(#names: &[#state_ty],)* #frame_comma out: &mut [#ret]) {
            let full = out.len() / L * L;
            // One result for the whole batch, zero once: each call writes
            // every entry but the constant zeros.
            let mut r = <#lanes_ret as Lanes>::zero();
            for (g, group) in out[..full].chunks_exact_mut(L).enumerate() {
                let c = g * L;
                #into(#(#group,)* #frame_arg_comma &mut r);
                if let Ok(group) = <&mut [#ret; L]>::try_from(group) {
                    r.write_lanes(group.each_mut());
                }
            }
            for k in full..out.len() {
                out[k] = super::#kernel(#(#one,)* #frame_arg);
            }
        }

        #par_fn
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::lane_widths;
    use crate::{generate, GenerateError, OptionKey, Options};

    /// Lane counts outside `wide`'s widths are refused with the expected ones.
    #[test]
    fn lane_counts_follow_the_scalar_type() {
        let urdf = include_str!("../../tests/golden/double_pendulum.urdf");
        for (scalar, lanes, expected) in [
            (ScalarType::F64, 16, "with f64: expected 2, 4 or 8"),
            (ScalarType::F64, 3, "with f64: expected 2, 4 or 8"),
            (ScalarType::F32, 2, "with f32: expected 4, 8 or 16"),
        ] {
            let options = Options {
                scalar,
                lanes: Some(lanes),
                ..Options::default()
            };
            let err = generate(urdf, &options).unwrap_err();
            assert!(
                matches!(err, GenerateError::Option(ref e) if e.option == OptionKey::Lanes),
                "{err}"
            );
            assert_eq!(err.to_string(), format!("lanes: {lanes} lanes {expected}"));
        }
        for scalar in ScalarType::ALL {
            for &lanes in lane_widths(scalar) {
                let options = Options {
                    scalar,
                    lanes: Some(lanes),
                    ..Options::default()
                };
                let text = generate(urdf, &options).unwrap();
                let ty = format!("wide::{}x{lanes}", scalar.name());
                assert!(text.contains(&ty), "{ty}");
            }
        }
    }
}
