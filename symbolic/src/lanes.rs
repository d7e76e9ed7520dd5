//! Many states per call: the `lanes` module of a generated module (the lane
//! type `V`, the `Lanes` transposition trait, the batch error) and each
//! function's array-of-structures and batch wrappers around its lane kernel.

use proc_macro2::{Group, Ident, Literal, Span, TokenStream, TokenTree};
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

/// The lane type `V` and the `Lanes` trait with its impls for `V` and arrays.
const SUPPORT: &str = include_str!("lanes/support.rs");
/// The batch error `LengthMismatch`.
const BATCH: &str = include_str!("lanes/batch.rs");
/// `TASK_OPS` and `par_chunk`, with `threads`.
const THREADS: &str = include_str!("lanes/threads.rs");

/// The `lanes` module: the lane type `V` (a `wide` SIMD vector of `L` values
/// of the scalar type, one state per lane), the `Lanes` transposition trait,
/// the batch error, the split of a batch across threads (with `threads`), and
/// the functions' lane items. All but the tuple impls come from the support
/// files `lanes/*.rs` ([`support_items`]).
pub(crate) fn lanes_module(
    l: usize,
    scalar: ScalarType,
    std: bool,
    threads: bool,
    tuple_arity: usize,
    items: &[TokenStream],
) -> TokenStream {
    // One of `lane_widths(scalar)`, checked by `generate`.
    let params = Params { l, scalar, std };
    let support = support_items(SUPPORT, &params);
    let tuple_impls = (2..=tuple_arity.max(4)).map(tuple_impl);
    let batch = support_items(BATCH, &params);
    let par_chunk = threads.then(|| support_items(THREADS, &params));
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

            #support

            #(#tuple_impls)*

            #batch

            #par_chunk

            #(#items)*
        }
    }
}

/// The parameters of a `lanes` module that the support files leave open.
struct Params {
    /// The number of lanes.
    l: usize,
    /// The scalar type.
    scalar: ScalarType,
    /// Whether the module may use `std` (the square root and the fused
    /// multiply-add as vector instructions).
    std: bool,
}

/// The math functions of `V`, named as `libm`'s for `f64`.
const MATH: [&str; 5] = ["sin", "cos", "sincos", "sqrt", "atan2"];

/// The items of a support file (`text`) but its `use` declarations, which
/// are the test harness's, with the parameters in place of the placeholders
/// the file's opening comment lists.
fn support_items(text: &str, params: &Params) -> TokenStream {
    // The files are compiled as they are by `lanes::check`.
    let file = syn::parse_file(text).expect("a lanes support file parses");
    let items = file
        .items
        .iter()
        .filter(|item| !matches!(item, syn::Item::Use(_)));
    params.substitute(quote!(#(#items)*))
}

impl Params {
    /// `wide`'s vector type: `f64x4`.
    fn wide(&self) -> Ident {
        format_ident!("{}x{}", self.scalar.name(), self.l)
    }

    /// `tokens` with the placeholders replaced, in groups too.
    fn substitute(&self, tokens: TokenStream) -> TokenStream {
        let tts: Vec<TokenTree> = tokens.into_iter().collect();
        let mut out = TokenStream::new();
        let mut i = 0;
        while i < tts.len() {
            // `if STD { A } else { B }`: the branch of the module's `std`.
            if let [TokenTree::Ident(r#if), TokenTree::Ident(std), TokenTree::Group(a), TokenTree::Ident(r#else), TokenTree::Group(b), ..] =
                &tts[i..]
            {
                if r#if == "if" && std == "STD" && r#else == "else" {
                    let chosen = if self.std { a } else { b };
                    out.extend(self.substitute(chosen.stream()));
                    i += 5;
                    continue;
                }
            }
            let after_dot =
                i > 0 && matches!(&tts[i - 1], TokenTree::Punct(p) if p.as_char() == '.');
            out.extend(self.token(&tts[i], after_dot));
            i += 1;
        }
        out
    }

    /// One token tree, substituted; `after_dot`: it follows a `.` (a method
    /// of `wide`'s vector, never renamed).
    fn token(&self, tt: &TokenTree, after_dot: bool) -> TokenStream {
        match tt {
            TokenTree::Group(g) => {
                let mut group = Group::new(g.delimiter(), self.substitute(g.stream()));
                group.set_span(g.span());
                TokenTree::Group(group).into()
            }
            TokenTree::Ident(ident) => match ident.to_string().as_str() {
                "Real" => self.scalar.ty(),
                "Wide" => {
                    let w = self.wide();
                    quote!(wide::#w)
                }
                "LANES" => TokenTree::Literal(Literal::usize_unsuffixed(self.l)).into(),
                "TRIG_BOUND" => trig_limit(self.scalar),
                "TRIG_LANES" => TokenTree::Literal(Literal::usize_unsuffixed(TRIG_LANES)).into(),
                name if MATH.contains(&name) && !after_dot => {
                    TokenTree::Ident(self.scalar.math_name(name)).into()
                }
                _ => tt.clone().into(),
            },
            TokenTree::Literal(lit) => self.doc_text(lit).unwrap_or_else(|| tt.clone().into()),
            TokenTree::Punct(_) => tt.clone().into(),
        }
    }

    /// A string literal that names `Wide` or a math function of `V` between
    /// backquotes (a doc comment), with the names of the module; `None` for
    /// any other literal.
    fn doc_text(&self, lit: &Literal) -> Option<TokenStream> {
        if !lit.to_string().contains('`') {
            return None;
        }
        let text = syn::parse2::<syn::LitStr>(TokenTree::Literal(lit.clone()).into())
            .ok()?
            .value();
        let mut new = text.replace("`Wide`", &format!("`{}`", self.wide()));
        for name in MATH {
            let math = self.scalar.math_name(name);
            new = new.replace(&format!("`V::{name}`"), &format!("`V::{math}`"));
        }
        (new != text).then(|| TokenTree::Literal(Literal::string(&new)).into())
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
mod check;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::lane_widths;
    use crate::{generate, GenerateError, OptionKey, Options};

    /// The wrappers of a lanes kernel `f(q, h)`: the whole text without
    /// threads, the lines that a frame and threads change with them.
    #[test]
    fn wrappers_text() {
        let args = [("q", Dim::Nq), ("h", Dim::Scalar)];
        let output = Output::Vector(Dim::Nv);
        let text = crate::ffi::pretty(lane_wrappers(
            "f",
            &args,
            &output,
            false,
            ScalarType::F64,
            false,
            7,
        ));
        assert_eq!(text, WRAPPERS);
        // Per frame, `f32`, with threads.
        let par = crate::ffi::pretty(lane_wrappers(
            "f",
            &args,
            &output,
            true,
            ScalarType::F32,
            true,
            7,
        ));
        for line in [
            "pub fn f_aos(q: &[[f32; NQ]; L], h: &[f32; L], frame: Frame) -> [[f32; NV]; L] {",
            "    Lanes::scatter(&f(&Lanes::gather(q), Lanes::gather(h), frame))",
            "        out[k] = super::f(&q[k], h[k], frame);",
            "pub fn f_batch_par(",
            "    let chunk = par_chunk(out.len(), 7);",
            "        f_each(&q[s..e], &h[s..e], frame, out)",
        ] {
            assert!(par.contains(&format!("{line}\n")), "{line}");
        }
    }

    /// [`lane_wrappers`] of `f(q, h) -> [f64; NV]`, without threads.
    const WRAPPERS: &str = r##"/// [`f`] on `L` states given one per entry (array of structures): transposes them into lanes, runs the kernel, and transposes the results back.
pub fn f_aos(q: &[[f64; NQ]; L], h: &[f64; L]) -> [[f64; NV]; L] {
    Lanes::scatter(&f(&Lanes::gather(q), Lanes::gather(h)))
}
/// [`super::f`] on every state of the slices, one result per state in `out`: full groups of `L` states gathered into lanes, through the kernel [`f`] and transposed back `L` values at a time, the remaining `< L` through the scalar function. The scalar function's numbers, state by state, to a few units in the last place.
///
/// # Errors
/// [`LengthMismatch`] when an argument's length differs from `out.len()`; nothing is written then.
pub fn f_batch(
    q: &[[f64; NQ]],
    h: &[f64],
    out: &mut [[f64; NV]],
) -> Result<(), LengthMismatch> {
    if q.len() != out.len() {
        return Err(LengthMismatch {
            argument: "q",
            len: q.len(),
            expected: out.len(),
        });
    }
    if h.len() != out.len() {
        return Err(LengthMismatch {
            argument: "h",
            len: h.len(),
            expected: out.len(),
        });
    }
    f_each(q, h, out);
    Ok(())
}
/// [`f_batch`] after its length checks: every slice holds `out.len()` states.
fn f_each(q: &[[f64; NQ]], h: &[f64], out: &mut [[f64; NV]]) {
    let full = out.len() / L * L;
    let mut r = <[V; NV] as Lanes>::zero();
    for (g, group) in out[..full].chunks_exact_mut(L).enumerate() {
        let c = g * L;
        f_into(
            &Lanes::gather(&core::array::from_fn(|j| q[c + j])),
            Lanes::gather(&core::array::from_fn(|j| h[c + j])),
            &mut r,
        );
        if let Ok(group) = <&mut [[f64; NV]; L]>::try_from(group) {
            r.write_lanes(group.each_mut());
        }
    }
    for k in full..out.len() {
        out[k] = super::f(&q[k], h[k]);
    }
}
"##;

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
