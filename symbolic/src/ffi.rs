//! The C interface of a generated module ([`Options::c_api`]): a `c_api`
//! module of `extern "C"` wrappers around every function of the table,
//! named `PREFIX_FUNCTION`, and the C header that declares them. Both are
//! written from the signatures of the emitted functions: the function
//! table's ([`crate::Function::args`], [`crate::Spec::output`],
//! [`crate::Spec::doc`]), the Jacobians of [`Options::jacobians`] and the
//! user functions, so a new function needs no change here.
//!
//! Layouts: every argument and result is a plain `double *` (`float *` with
//! `scalar = f32`) to the Rust array's memory, row-major: a matrix `[R x C]`
//! is `R` rows of `C` values, `fext` is `NJOINTS` rows of 6, a placement 4
//! rows of 4. A tuple result is one pointer per part, in order. A per-frame
//! function takes the frame's index in `Frame::ALL` (`PREFIX_FRAME_*`) after
//! its arrays. The batch forms `PREFIX_FUNCTION_batch(size_t n, ...)` take `n`
//! states one after the other (`n x NQ` for `q`, `n` values for a scalar
//! argument such as `h`) and write `n` results per part; with lanes they go
//! through the `lanes` kernel, with threads split across rayon's pool as
//! `NAME_batch_par`. Each function returns a status code: `OK` (0), or
//! `NULL_POINTER`, `MISALIGNED`, `BAD_FRAME`, `BAD_COUNT` with nothing
//! written.

use std::collections::BTreeSet;
use std::fmt::Write;

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use rbdgen_runtime::Model;

use crate::api::{dim_tokens, output_type, selected_frames};
use crate::emit::ScalarType;
use crate::functions::{Dim, Output};
use crate::item::Signature;
use crate::options::Options;

/// The status codes of the C interface: name, value and meaning, in the
/// order of the `c_api` module's constants and the header's macros.
pub const STATUS_CODES: [(&str, i32, &str); 5] = [
    ("OK", 0, "success: every result written"),
    (
        "NULL_POINTER",
        1,
        "a pointer argument is null (with n > 0 for a batch); nothing written",
    ),
    (
        "MISALIGNED",
        2,
        "a pointer is not aligned to its scalar type; nothing written",
    ),
    (
        "BAD_FRAME",
        3,
        "the frame index is not below the number of frames; nothing written",
    ),
    (
        "BAD_COUNT",
        4,
        "n states of an argument or result would exceed isize::MAX bytes; nothing written",
    ),
];

/// One argument or result part of a function, as the C interface (and the
/// Python module, [`crate::python`]) sees it.
pub(crate) struct Part {
    pub(crate) name: String,
    /// One state's Rust type (`[f64; NQ]`, `[[f64; 6]; NJOINTS]`, `f64`).
    pub(crate) ty: TokenStream,
    /// Its length in scalars, as C text over the header's macros.
    len_c: String,
    /// Its shape in words (`[NV x NV]`).
    pub(crate) shape: String,
    /// Its array shape, outer dimension first, over the module's constants
    /// (empty for a scalar).
    pub(crate) dims: Vec<TokenStream>,
    /// A scalar argument, passed by value in the single call.
    pub(crate) by_value: bool,
}

pub(crate) fn arg_part(name: &str, dim: Dim, ty: &TokenStream, prefix: &str) -> Part {
    let p = prefix.to_uppercase();
    let (rust, len_c, shape, dims) = match dim {
        Dim::Wrenches => (
            quote!([[#ty; 6]; NJOINTS]),
            format!("6 * {p}_NJOINTS"),
            "[NJOINTS x 6]".to_string(),
            vec![quote!(NJOINTS), quote!(6)],
        ),
        Dim::Parameters => (
            quote!([[#ty; 10]; NPARAMETERS]),
            format!("10 * {p}_NPARAMETERS"),
            "[NPARAMETERS x 10]".to_string(),
            vec![quote!(NPARAMETERS), quote!(10)],
        ),
        Dim::Placement => (
            quote!([[#ty; 4]; 4]),
            "16".to_string(),
            "[4 x 4]".to_string(),
            vec![quote!(4), quote!(4)],
        ),
        Dim::Scalar => (ty.clone(), "1".to_string(), "scalar".to_string(), vec![]),
        d => {
            let n = dim_tokens(d);
            (
                quote!([#ty; #n]),
                dim_c(d, &p),
                format!("[{}]", dim_words(d)),
                vec![n],
            )
        }
    };
    Part {
        name: name.to_string(),
        ty: rust,
        len_c,
        shape,
        dims,
        by_value: dim == Dim::Scalar,
    }
}

/// A dimension as C text over the header's macros (`GO2_Z1_NV`).
fn dim_c(d: Dim, p: &str) -> String {
    match d {
        Dim::Nq => format!("{p}_NQ"),
        Dim::Nv => format!("{p}_NV"),
        Dim::Fixed(n) => n.to_string(),
        Dim::Wrenches => format!("6 * {p}_NJOINTS"),
        Dim::Nu => format!("{p}_NU"),
        Dim::TwoNv => format!("2 * {p}_NV"),
        Dim::Placement => "16".into(),
        Dim::Scalar => "1".into(),
        Dim::Contacts => format!("{p}_NC"),
        Dim::Parameters => format!("10 * {p}_NPARAMETERS"),
        Dim::Regressor => format!("10 * ({p}_NJOINTS - 1)"),
    }
}

/// A dimension in words, as the Rust docs write it (`NV`, `2NV`, `6`).
fn dim_words(d: Dim) -> String {
    match d {
        Dim::Nq => "NQ".into(),
        Dim::Nv => "NV".into(),
        Dim::Fixed(n) => n.to_string(),
        Dim::Wrenches => "6 NJOINTS".into(),
        Dim::Nu => "NU".into(),
        Dim::TwoNv => "2NV".into(),
        Dim::Placement => "16".into(),
        Dim::Scalar => "1".into(),
        Dim::Contacts => "NC".into(),
        Dim::Parameters => "10 NPARAMETERS".into(),
        Dim::Regressor => "10 (NJOINTS - 1)".into(),
    }
}

/// The parts of a result: one for a plain output, one per entry of a tuple,
/// named `out` or `out0`, `out1`, ...
pub(crate) fn output_parts(output: &Output, ty: &TokenStream, prefix: &str) -> Vec<Part> {
    let p = prefix.to_uppercase();
    let one = |name: String, o: &Output| {
        let (len_c, shape, dims) = match o {
            Output::Vector(n) => (
                dim_c(*n, &p),
                format!("[{}]", dim_words(*n)),
                vec![dim_tokens(*n)],
            ),
            Output::Matrix(r, c) => (
                format!("({}) * ({})", dim_c(*r, &p), dim_c(*c, &p)),
                format!("[{} x {}] row-major", dim_words(*r), dim_words(*c)),
                vec![dim_tokens(*r), dim_tokens(*c)],
            ),
            // A tuple holds no tuple ([`Output::Tuple`]).
            Output::Scalar | Output::Tuple(_) => ("1".to_string(), "scalar".to_string(), vec![]),
        };
        Part {
            name,
            ty: output_type(o, ty),
            len_c,
            shape,
            dims,
            by_value: false,
        }
    };
    match output {
        Output::Tuple(parts) => parts
            .iter()
            .enumerate()
            .map(|(k, o)| one(format!("out{k}"), o))
            .collect(),
        o => vec![one("out".into(), o)],
    }
}

/// The C names of the frame constants, `PREFIX_FRAME_LINK` with the link
/// name upper-cased (other characters as `_`, a repeat numbered), in
/// `Frame::ALL` order.
fn frame_constants(model: &Model, options: &Options, prefix: &str) -> Vec<(String, String)> {
    let p = prefix.to_uppercase();
    let mut taken = BTreeSet::new();
    selected_frames(model, options)
        .into_iter()
        .map(|(_, f)| {
            let base: String = f
                .name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        c.to_ascii_uppercase()
                    } else {
                        '_'
                    }
                })
                .collect();
            let mut name = format!("{p}_FRAME_{base}");
            let mut k = 2;
            while !taken.insert(name.clone()) {
                name = format!("{p}_FRAME_{base}_{k}");
                k += 1;
            }
            (name, f.name.clone())
        })
        .collect()
}

/// The `c_api` module: the status codes, and per function its `extern "C"`
/// single call, its safe batch over slices (one per result part) and the
/// batch's `extern "C"` form.
pub(crate) fn c_api_module(
    options: &Options,
    functions: &[Signature],
    prefix: &str,
) -> TokenStream {
    let ty = options.scalar.ty();
    let codes = STATUS_CODES.iter().map(|(name, value, doc)| {
        let name = Ident::new(name, Span::call_site());
        let doc = format!(" {doc}.");
        quote!(#[doc = #doc] pub const #name: i32 = #value;)
    });
    let items = functions
        .iter()
        .map(|f| function_items(options, f, prefix, &ty));
    let lanes_use = options.lanes.map(|_| {
        quote!(
            use super::lanes::Lanes;
        )
    });
    let doc = format!(
        " The C interface: `extern \"C\"` functions `{prefix}_NAME` and `{prefix}_NAME_batch` \
         (the header `{prefix}.h` declares them), each returning a status code; and the batches \
         over slices behind them, one slice per result part."
    );
    quote! {
        #[doc = #doc]
        ///
        /// Pointers are to the arrays' memory, row-major, aligned to the scalar type; a
        /// per-frame function takes the frame's index in [`Frame::ALL`]. The single call
        /// reads every input before it writes a result, so a result may overlap an input;
        /// the batches' arguments must not overlap their results.
        pub mod c_api {
            #![allow(clippy::all, clippy::pedantic, clippy::nursery, non_snake_case, dead_code, unsafe_code)]
            use super::*;
            #lanes_use

            #(#codes)*

            /// Whether `p` is null or misaligned for `T`: the status to return, if any.
            #[inline(always)]
            fn check<T>(p: *const T) -> Option<i32> {
                if p.is_null() {
                    Some(NULL_POINTER)
                } else if !p.is_aligned() {
                    Some(MISALIGNED)
                } else {
                    None
                }
            }

            /// Whether `n` values of `T` fit in one allocation (`isize::MAX` bytes).
            #[inline(always)]
            fn fits<T>(n: usize) -> bool {
                n.checked_mul(core::mem::size_of::<T>()).is_some_and(|b| b <= isize::MAX as usize)
            }

            /// The frame of index `k` in [`Frame::ALL`].
            #[inline(always)]
            fn frame_at(k: usize) -> Option<Frame> {
                Frame::ALL.get(k).copied()
            }

            #(#items)*
        }
    }
}

/// A function's items in `c_api`: its `extern "C"` single call, its batch
/// over slices (with the batch's lanes loop and threaded split) and the
/// batch's `extern "C"` form.
fn function_items(
    options: &Options,
    spec: &Signature,
    prefix: &str,
    ty: &TokenStream,
) -> TokenStream {
    let f = CFunction::new(options, spec, prefix, ty);
    let single = f.single(prefix);
    let batch_items = f.batch_items();
    let c_batch_fn = f.c_batch(prefix);
    quote!(#single #batch_items #c_batch_fn)
}

/// A function of the table as the `c_api` module wraps it: its parts and
/// their names.
struct CFunction<'a> {
    options: &'a Options,
    spec: &'a Signature,
    /// The scalar type.
    ty: &'a TokenStream,
    args: Vec<Part>,
    outs: Vec<Part>,
    a_names: Vec<Ident>,
    o_names: Vec<Ident>,
    /// Whether the result is a tuple (one pointer or slice per part).
    tuple: bool,
}

impl<'a> CFunction<'a> {
    fn new(options: &'a Options, spec: &'a Signature, prefix: &str, ty: &'a TokenStream) -> Self {
        let args: Vec<Part> = spec
            .args
            .iter()
            .map(|(n, d)| arg_part(n, *d, ty, prefix))
            .collect();
        let outs = output_parts(&spec.output, ty, prefix);
        let ident = |p: &Part| Ident::new(&p.name, Span::call_site());
        CFunction {
            options,
            spec,
            ty,
            a_names: args.iter().map(ident).collect(),
            o_names: outs.iter().map(ident).collect(),
            args,
            outs,
            tuple: matches!(spec.output, Output::Tuple(_)),
        }
    }

    /// The Rust function's name.
    fn name(&self) -> Ident {
        Ident::new(&self.spec.name, Span::call_site())
    }

    fn a_tys(&self) -> Vec<&TokenStream> {
        self.args.iter().map(|a| &a.ty).collect()
    }

    fn o_tys(&self) -> Vec<&TokenStream> {
        self.outs.iter().map(|o| &o.ty).collect()
    }

    /// The frame index of an `extern "C"` function.
    fn frame_param(&self) -> Option<TokenStream> {
        self.spec.per_frame.then(|| quote!(frame: usize,))
    }

    fn frame_arg(&self) -> Option<TokenStream> {
        self.spec.per_frame.then(|| quote!(frame,))
    }

    /// The frame of the index, or `BAD_FRAME`.
    fn frame_check(&self) -> Option<TokenStream> {
        self.spec.per_frame.then(|| {
            quote! {
                let Some(frame) = frame_at(frame) else { return BAD_FRAME; };
            }
        })
    }

    /// The frame of a batch over slices.
    fn frame_rust_param(&self) -> Option<TokenStream> {
        self.spec.per_frame.then(|| quote!(frame: Frame,))
    }

    /// `if let Some(status) = check(p) { return status; }` for each pointer.
    fn pointer_checks<'b>(
        &'b self,
        pointers: impl Iterator<Item = &'b Ident> + 'b,
    ) -> impl Iterator<Item = TokenStream> + 'b {
        let ty = self.ty;
        pointers
            .chain(&self.o_names)
            .map(move |n| quote!(#n as *const #ty))
            .map(|p| quote!(if let Some(status) = check(#p) { return status; }))
    }

    /// The arguments of one state `k` of the slices to the scalar function.
    fn state_args(&self) -> impl Iterator<Item = TokenStream> + '_ {
        self.args.iter().zip(&self.a_names).map(|(a, n)| {
            if a.by_value {
                quote!(#n[k])
            } else {
                quote!(&#n[k])
            }
        })
    }

    /// The `extern "C"` single call: `PREFIX_NAME`.
    fn single(&self, prefix: &str) -> TokenStream {
        let (spec, ty, o_names) = (self.spec, self.ty, &self.o_names);
        let name = self.name();
        let c_name = format_ident!("{prefix}_{}", spec.name);
        let (frame_param, frame_arg) = (self.frame_param(), self.frame_arg());
        let frame_check = self.frame_check();
        let single_params = self.args.iter().zip(&self.a_names).map(|(a, n)| {
            if a.by_value {
                quote!(#n: #ty)
            } else {
                quote!(#n: *const #ty)
            }
        });
        let pointer_names = self
            .args
            .iter()
            .zip(&self.a_names)
            .filter(|(a, _)| !a.by_value)
            .map(|(_, n)| n);
        let checks = self.pointer_checks(pointer_names);
        let call_args = self.args.iter().zip(&self.a_names).map(|(a, n)| {
            let t = &a.ty;
            if a.by_value {
                quote!(#n)
            } else {
                quote!(unsafe { &*#n.cast::<#t>() })
            }
        });
        let o_tys = self.o_tys();
        let writes: Vec<TokenStream> = if self.tuple {
            o_names
                .iter()
                .zip(&o_tys)
                .enumerate()
                .map(|(k, (n, t))| {
                    let k = proc_macro2::Literal::usize_unsuffixed(k);
                    quote!(unsafe { #n.cast::<#t>().write(r.#k) };)
                })
                .collect()
        } else {
            let (n, t) = (&o_names[0], o_tys[0]);
            vec![quote!(unsafe { #n.cast::<#t>().write(r) };)]
        };
        let rust_doc = spec.doc.iter().map(|l| format!(" {l}"));
        let single_doc = format!(
            " C form of [`super::{}`]: {}; {}. Returns [`OK`], or [`NULL_POINTER`], [`MISALIGNED`]{} \
             with nothing written.",
            spec.name,
            shapes(&self.args),
            shapes(&self.outs),
            if spec.per_frame { ", [`BAD_FRAME`]" } else { "" },
        );
        quote! {
            #[doc = #single_doc]
            ///
            #(#[doc = #rust_doc])*
            ///
            /// # Safety
            /// Each pointer is to as many values as its shape holds.
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn #c_name(#(#single_params,)* #frame_param #(#o_names: *mut #ty),*) -> i32 {
                #(#checks)*
                #frame_check
                let r = super::#name(#(#call_args,)* #frame_arg);
                #(#writes)*
                OK
            }
        }
    }

    /// The parameters of the batch over slices: a slice per argument, a
    /// mutable one per result part.
    fn slice_params(&self) -> Vec<TokenStream> {
        let (a_tys, o_tys) = (self.a_tys(), self.o_tys());
        self.a_names
            .iter()
            .zip(&a_tys)
            .map(|(n, t)| quote!(#n: &[#t]))
            .chain(
                self.o_names
                    .iter()
                    .zip(&o_tys)
                    .map(|(n, t)| quote!(#n: &mut [#t])),
            )
            .collect()
    }

    /// The arguments' and the results' names, in the order of the slices.
    fn all_names(&self) -> Vec<&Ident> {
        self.a_names.iter().chain(&self.o_names).collect()
    }

    /// `NAME_batch` (the length checks, then `NAME_each` or `NAME_par`),
    /// `NAME_each` (the loop on one thread) and, with threads, `NAME_par`.
    fn batch_items(&self) -> TokenStream {
        let (spec, options) = (self.spec, self.options);
        let name = self.name();
        let batch = format_ident!("{}_batch", spec.name);
        let each = format_ident!("{}_each", spec.name);
        let par = format_ident!("{}_par", spec.name);
        let ops = proc_macro2::Literal::usize_unsuffixed(spec.ops);
        let (frame_arg, frame_rust_param) = (self.frame_arg(), self.frame_rust_param());
        let n0 = &self.o_names[0];
        let lengths = self
            .a_names
            .iter()
            .chain(self.o_names.iter().skip(1))
            .map(|n| {
                let text = n.to_string();
                quote! {
                    if #n.len() != #n0.len() {
                        return Err((#text, #n.len(), #n0.len()));
                    }
                }
            });
        let one = self.state_args();
        let store_one: Vec<TokenStream> = if self.tuple {
            self.o_names
                .iter()
                .enumerate()
                .map(|(k, n)| {
                    let k = proc_macro2::Literal::usize_unsuffixed(k);
                    quote!(#n[k] = r.#k;)
                })
                .collect()
        } else {
            vec![quote!(#n0[k] = r;)]
        };
        let lanes_loop = options.lanes.map(|_| self.lanes_loop());
        let slice_params = self.slice_params();
        let all_names = self.all_names();
        let run = if options.threads {
            self.par_fn()
        } else {
            TokenStream::new()
        };
        let call_batch = if options.threads {
            quote!(#par(#(#all_names,)* #frame_arg lanes::par_chunk(#n0.len(), #ops));)
        } else {
            quote!(#each(#(#all_names,)* #frame_arg);)
        };
        let through = match (options.lanes.is_some(), options.threads) {
            (true, true) => {
                "in whole groups of `L` states through the lanes kernel, split across rayon's threads \
                 as `lanes::NAME_batch_par`, the tail through the scalar function"
            }
            (true, false) => {
                "in whole groups of `L` states through the lanes kernel, the tail through the scalar \
                 function"
            }
            _ => "state by state",
        };
        let start = if options.lanes.is_some() {
            TokenStream::new()
        } else {
            quote!(let c = 0;)
        };
        let batch_doc = format!(
            " [`super::{}`] on every state of the slices, {through}; result part `k` of state `i` in \
             `out{{k}}[i]` (`out[i]` for a single result).",
            spec.name
        );
        quote! {
            #[doc = #batch_doc]
            ///
            /// # Errors
            /// The argument whose length differs from the first result's, with its length and
            /// the expected one; nothing is written then.
            pub fn #batch(#(#slice_params,)* #frame_rust_param) -> Result<(), (&'static str, usize, usize)> {
                #(#lengths)*
                #call_batch
                Ok(())
            }

            /// The batch after its length checks, on one thread.
            fn #each(#(#slice_params,)* #frame_rust_param) {
                #start
                #lanes_loop
                for k in c..#n0.len() {
                    let r = super::#name(#(#one,)* #frame_arg);
                    #(#store_one)*
                }
            }

            #run
        }
    }

    /// The batch's loop over whole groups of `L` states through
    /// `lanes::NAME_into`, leaving `c` at the first state of the tail.
    fn lanes_loop(&self) -> TokenStream {
        let frame_arg = self.frame_arg();
        let n0 = &self.o_names[0];
        let group = self.args.iter().zip(&self.a_names).map(|(a, n)| {
            let g = quote!(Lanes::gather(&core::array::from_fn(|j| #n[c + j])));
            if a.by_value {
                g
            } else {
                quote!(&#g)
            }
        });
        // The `L` states of a group of one output slice, as `[&mut T; L]`.
        let states = |n: &Ident| quote!(<&mut [_; lanes::L]>::try_from(&mut #n[c..c + lanes::L]));
        let store_lanes: Vec<TokenStream> = if self.tuple {
            self.o_names
                .iter()
                .enumerate()
                .map(|(k, n)| {
                    let (k, states) = (proc_macro2::Literal::usize_unsuffixed(k), states(n));
                    quote! {
                        if let Ok(s) = #states {
                            r.#k.write_lanes(s.each_mut());
                        }
                    }
                })
                .collect()
        } else {
            let states = states(n0);
            vec![quote! {
                if let Ok(s) = #states {
                    r.write_lanes(s.each_mut());
                }
            }]
        };
        let into = format_ident!("{}_into", self.spec.name);
        quote! {
            let full = #n0.len() / lanes::L * lanes::L;
            // One result for the whole batch, zero once (`lanes::NAME_into`
            // writes every entry but the constant zeros).
            let mut r = lanes::Lanes::zero();
            let mut c = 0;
            while c < full {
                lanes::#into(#(#group,)* #frame_arg &mut r);
                #(#store_lanes)*
                c += lanes::L;
            }
        }
    }

    /// `NAME_par`: the batch halved recursively with `rayon::join` down to
    /// tasks of `chunk` states.
    fn par_fn(&self) -> TokenStream {
        let each = format_ident!("{}_each", self.spec.name);
        let par = format_ident!("{}_par", self.spec.name);
        let (frame_arg, frame_rust_param) = (self.frame_arg(), self.frame_rust_param());
        let slice_params = self.slice_params();
        let all_names = self.all_names();
        let n0 = &self.o_names[0];
        let halves_a = self.a_names.iter().map(|n| {
            let (x, y) = (format_ident!("{n}_a"), format_ident!("{n}_b"));
            quote!(let (#x, #y) = #n.split_at(mid);)
        });
        let halves_o = self.o_names.iter().map(|n| {
            let (x, y) = (format_ident!("{n}_a"), format_ident!("{n}_b"));
            quote!(let (#x, #y) = #n.split_at_mut(mid);)
        });
        let first = all_names.iter().map(|n| format_ident!("{n}_a"));
        let second = all_names.iter().map(|n| format_ident!("{n}_b"));
        quote! {
            /// The batch in tasks of `chunk` states (the last one shorter) on rayon's pool:
            /// the tasks of `lanes::NAME_batch_par`.
            fn #par(#(#slice_params,)* #frame_rust_param chunk: usize) {
                if #n0.len() <= chunk {
                    return #each(#(#all_names,)* #frame_arg);
                }
                let mid = #n0.len().div_ceil(chunk) / 2 * chunk;
                #(#halves_a)*
                #(#halves_o)*
                rayon::join(
                    || #par(#(#first,)* #frame_arg chunk),
                    || #par(#(#second,)* #frame_arg chunk),
                );
            }
        }
    }

    /// The batch's `extern "C"` form: `PREFIX_NAME_batch(n, ...)`.
    fn c_batch(&self, prefix: &str) -> TokenStream {
        let (spec, ty, options) = (self.spec, self.ty, self.options);
        let c_batch = format_ident!("{prefix}_{}_batch", spec.name);
        let batch = format_ident!("{}_batch", spec.name);
        let each = format_ident!("{}_each", spec.name);
        let par = format_ident!("{}_par", spec.name);
        let ops = proc_macro2::Literal::usize_unsuffixed(spec.ops);
        let (frame_param, frame_arg) = (self.frame_param(), self.frame_arg());
        let frame_check = self.frame_check();
        let (a_names, o_names) = (&self.a_names, &self.o_names);
        let (a_tys, o_tys) = (self.a_tys(), self.o_tys());
        let all_names = self.all_names();
        let batch_in = a_names.iter().map(|n| quote!(#n: *const #ty));
        let batch_out = o_names.iter().map(|n| quote!(#n: *mut #ty));
        let batch_checks = self.pointer_checks(a_names.iter());
        let counts = a_tys
            .iter()
            .chain(&o_tys)
            .map(|t| quote!(if !fits::<#t>(n) { return BAD_COUNT; }));
        let slices_a = a_names.iter().zip(&a_tys).map(
            |(n, t)| quote!(let #n = unsafe { core::slice::from_raw_parts(#n.cast::<#t>(), n) };),
        );
        let slices_o = o_names.iter().zip(&o_tys).map(
            |(n, t)| quote!(let #n = unsafe { core::slice::from_raw_parts_mut(#n.cast::<#t>(), n) };),
        );
        let c_batch_doc = format!(
            " C form of [`{batch}`]: `n` states one after the other in each argument (`n` times its \
             shape, `n` values for a scalar argument), `n` results per part. Returns [`OK`] (at once \
             for `n = 0`), or [`NULL_POINTER`], [`MISALIGNED`], [`BAD_COUNT`]{} with nothing written.",
            if spec.per_frame { ", [`BAD_FRAME`]" } else { "" },
        );
        let each_or_par = if options.threads {
            quote!(#par(#(#all_names,)* #frame_arg lanes::par_chunk(n, #ops));)
        } else {
            quote!(#each(#(#all_names,)* #frame_arg);)
        };
        quote! {
            #[doc = #c_batch_doc]
            ///
            /// # Safety
            /// Each pointer is to `n` states of its shape; results do not overlap arguments or
            /// each other.
            #[unsafe(no_mangle)]
            pub unsafe extern "C" fn #c_batch(n: usize, #(#batch_in,)* #frame_param #(#batch_out),*) -> i32 {
                if n == 0 {
                    return OK;
                }
                #(#batch_checks)*
                #frame_check
                #(#counts)*
                #(#slices_a)*
                #(#slices_o)*
                #each_or_par
                OK
            }
        }
    }
}

/// The parts' names and shapes, for a doc line: `` `q`: [NQ], `v`: [NV] ``.
fn shapes(parts: &[Part]) -> String {
    parts
        .iter()
        .map(|p| format!("`{}`: {}", p.name, p.shape))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The C header of a module generated with `c_api = Some(prefix)`: an
/// include guard, the sizes and status codes as macros, the frame indices,
/// the neutral configuration, and a documented prototype per function and
/// batch. `header` is the generated module's header, one comment line each.
pub(crate) fn c_header(
    model: &Model,
    options: &Options,
    functions: &[Signature],
    prefix: &str,
    header: &[String],
) -> String {
    let p = prefix.to_uppercase();
    let c_ty = match options.scalar {
        ScalarType::F64 => "double",
        ScalarType::F32 => "float",
    };
    let mut h = String::new();
    header_intro(&mut h, model, header, c_ty, &p);
    header_frames(&mut h, model, options, prefix, c_ty);
    for spec in functions {
        prototypes(&mut h, spec, options.scalar, prefix, c_ty);
    }
    let _ = writeln!(h, "\n#ifdef __cplusplus\n}}\n#endif\n\n#endif /* {p}_H */");
    h
}

/// The header's opening comment (the module's header, then how the
/// interface passes arrays), its include guard and the size macros.
fn header_intro(h: &mut String, model: &Model, header: &[String], c_ty: &str, p: &str) {
    let _ = writeln!(h, "/*");
    for line in header {
        let line = line.replace("*/", "* /");
        let _ = writeln!(h, " *{}", line.trim_end());
    }
    let _ = writeln!(h, " *");
    let _ = writeln!(
        h,
        " * The C interface of the module above (its `c_api` module), generated by rbdgen."
    );
    let _ = writeln!(
        h,
        " * Arrays are {c_ty} pointers to row-major memory aligned to {c_ty}; a tuple result is"
    );
    let _ = writeln!(
        h,
        " * one pointer per part (out0, out1, ...). Every function returns {p}_OK or another"
    );
    let _ = writeln!(
        h,
        " * status code below, with nothing written. The `_batch` forms take n states one"
    );
    let _ = writeln!(
        h,
        " * after the other; their results must not overlap their arguments or each other."
    );
    let _ = writeln!(h, " */");
    let _ = writeln!(h, "#ifndef {p}_H");
    let _ = writeln!(h, "#define {p}_H\n");
    let _ = writeln!(h, "#include <stddef.h>\n");
    let _ = writeln!(h, "#ifdef __cplusplus\nextern \"C\" {{\n#endif\n");
    let _ = writeln!(h, "/* Length of the configuration q. */");
    let _ = writeln!(h, "#define {p}_NQ {}", model.nq);
    let _ = writeln!(h, "/* Length of the velocity v, and of a and tau. */");
    let _ = writeln!(h, "#define {p}_NV {}", model.nv);
    let _ = writeln!(
        h,
        "/* Number of joints, the universe included: the rows of fext. */"
    );
    let _ = writeln!(h, "#define {p}_NJOINTS {}", model.njoints());
    let _ = writeln!(h, "/* Number of actuated dofs: the length of u. */");
    let _ = writeln!(
        h,
        "#define {p}_NU {}",
        rbdgen_runtime::actuated_dofs(model).len()
    );
    if !model.contacts.is_empty() {
        let _ = writeln!(h, "/* Rows of the contact set. */");
        let _ = writeln!(h, "#define {p}_NC {}", Dim::Contacts.len(model));
    }
    if !model.parameters.is_empty() {
        let _ = writeln!(
            h,
            "/* Number of links whose inertial parameters are the argument pi. */"
        );
        let _ = writeln!(h, "#define {p}_NPARAMETERS {}", model.parameters.len());
    }
}

/// The number of frames, the status codes, the frame indices and the
/// neutral configuration.
fn header_frames(h: &mut String, model: &Model, options: &Options, prefix: &str, c_ty: &str) {
    let p = prefix.to_uppercase();
    let frames = frame_constants(model, options, prefix);
    let _ = writeln!(
        h,
        "/* Number of link frames of the per-frame functions. */\n#define {p}_NFRAMES {}\n",
        frames.len()
    );
    let _ = writeln!(h, "/* Status codes. */");
    for (name, value, doc) in STATUS_CODES {
        let _ = writeln!(h, "#define {p}_{name} {value} /* {doc} */");
    }
    let _ = writeln!(
        h,
        "\n/* Frame indices of the per-frame functions (the Rust `Frame::ALL` order). */"
    );
    for (k, (name, link)) in frames.iter().enumerate() {
        let _ = writeln!(h, "#define {name} {k} /* link `{link}` */");
    }
    let neutral: Vec<String> = model.neutral().iter().map(|x| format!("{x:?}")).collect();
    let _ = writeln!(
        h,
        "\n/* The neutral configuration (Pinocchio's `neutral`). */\nstatic const {c_ty} {p}_NEUTRAL[{p}_NQ] = {{{}}};",
        neutral.join(", ")
    );
}

/// A function's comment (its doc lines, then its parts' shapes and lengths)
/// and the prototypes of its single call and its batch.
fn prototypes(h: &mut String, spec: &Signature, scalar: ScalarType, prefix: &str, c_ty: &str) {
    let p = prefix.to_uppercase();
    let ty = scalar.ty();
    let args: Vec<Part> = spec
        .args
        .iter()
        .map(|(n, d)| arg_part(n, *d, &ty, prefix))
        .collect();
    let outs = output_parts(&spec.output, &ty, prefix);
    let _ = writeln!(h, "\n/*");
    for l in &spec.doc {
        let _ = writeln!(h, "{}", format!(" * {}", l.replace("*/", "* /")).trim_end());
    }
    let _ = writeln!(h, " *");
    for a in &args {
        let _ = writeln!(
            h,
            " * {}: {} ({}{})",
            a.name,
            a.shape,
            if a.by_value { "a value" } else { "values: " },
            if a.by_value {
                String::new()
            } else {
                a.len_c.clone()
            }
        );
    }
    if spec.per_frame {
        let _ = writeln!(
            h,
            " * frame: a frame index {p}_FRAME_*, below {p}_NFRAMES ({p}_BAD_FRAME otherwise)"
        );
    }
    for o in &outs {
        let _ = writeln!(h, " * {}: {} (values: {})", o.name, o.shape, o.len_c);
    }
    let _ = writeln!(
        h,
        " * The _batch form takes n states of each argument (n values of a scalar one)\n * and writes n results per part, state after state."
    );
    let _ = writeln!(h, " */");
    let mut params: Vec<String> = args
        .iter()
        .map(|a| {
            if a.by_value {
                format!("{c_ty} {}", a.name)
            } else {
                format!("const {c_ty} *{}", a.name)
            }
        })
        .collect();
    let mut batch: Vec<String> = std::iter::once("size_t n".to_string())
        .chain(args.iter().map(|a| format!("const {c_ty} *{}", a.name)))
        .collect();
    if spec.per_frame {
        params.push("size_t frame".into());
        batch.push("size_t frame".into());
    }
    for o in &outs {
        params.push(format!("{c_ty} *{}", o.name));
        batch.push(format!("{c_ty} *{}", o.name));
    }
    let _ = writeln!(h, "int {prefix}_{}({});", spec.name, params.join(", "));
    let _ = writeln!(h, "int {prefix}_{}_batch({});", spec.name, batch.join(", "));
}

/// The files of the C library crate (`staticlib` and `cdylib`) around a
/// module generated with `c_api = Some(name)`, path relative to the crate
/// and text: `Cargo.toml`, `src/lib.rs`, `src/NAME.rs` (`source`, the
/// module) and `include/NAME.h` (`header`, [`crate::Module::c_header`]).
/// `command` is the command line that regenerates the crate, for its headers.
pub fn c_crate(
    options: &Options,
    name: &str,
    source: &str,
    header: &str,
    command: &str,
) -> Vec<(String, String)> {
    let version = env!("CARGO_PKG_VERSION");
    let mut deps =
        String::from("libm = \"0.2\"\nwide = { version = \"1\", default-features = false }\n");
    if options.threads {
        deps.push_str("rayon = \"1\"\n");
    }
    let cargo = format!(
        "# The C library `{name}`, generated by rbdgen {version}: `{command}`.\n\
         # `cargo build --release` writes target/release/lib{name}.a and lib{name}.so;\n\
         # include/{name}.h declares their functions.\n\
         [package]\nname = \"{name}\"\nversion = \"0.1.0\"\nedition = \"2021\"\npublish = false\n\n\
         [lib]\ncrate-type = [\"staticlib\", \"cdylib\"]\n\n\
         [dependencies]\n{deps}\n\
         # The generated code does not panic; no unwinding crosses into C.\n\
         [profile.release]\npanic = \"abort\"\n\n\
         [profile.dev]\npanic = \"abort\"\n\n\
         # Not part of an enclosing workspace.\n[workspace]\n"
    );
    let lib = format!(
        "//! The C library `{name}`, generated by rbdgen {version}: `{command}`.\n\
         //! The functions are `{name}::c_api`'s, declared in `include/{name}.h`.\n\
         //! Do not edit: regenerate instead.\n\n\
         #[path = \"{name}.rs\"]\npub mod {name};\n"
    );
    vec![
        ("Cargo.toml".to_string(), cargo),
        ("src/lib.rs".to_string(), lib),
        (format!("src/{name}.rs"), source.to_string()),
        (format!("include/{name}.h"), header.to_string()),
    ]
}

/// A small signature for the writers' tests: `f(q, h)` of a pair
/// (`[f64; NV]`, `f64`), per frame or not.
#[cfg(test)]
pub(crate) fn example_signature(per_frame: bool) -> Signature {
    Signature {
        name: "f".into(),
        args: vec![("q".into(), Dim::Nq), ("h".into(), Dim::Scalar)],
        per_frame,
        output: Output::Tuple(&[Output::Vector(Dim::Nv), Output::Scalar]),
        doc: vec!["An example.".into()],
        ops: 7,
    }
}

/// Items as `prettyplease` prints them, for the writers' tests.
#[cfg(test)]
pub(crate) fn pretty(tokens: TokenStream) -> String {
    prettyplease::unparse(&syn::parse2(tokens).expect("items"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{generate, generate_module, is_c_identifier, GenerateError};

    const URDF: &str = include_str!("../../tests/golden/double_pendulum.urdf");

    fn c_options(lanes: Option<usize>) -> Options {
        Options {
            c_api: Some("pendulum".into()),
            lanes,
            threads: lanes.is_some(),
            ..Options::default()
        }
    }

    /// Every generated function has its two `extern "C"` functions and their
    /// prototypes, and both texts are the same from run to run.
    #[test]
    fn wrappers_and_prototypes_for_every_function() {
        for lanes in [None, Some(2)] {
            let options = c_options(lanes);
            let module = generate_module(URDF, &options, |_| {}).unwrap();
            let source = module.source().unwrap();
            let header = module.c_header().unwrap().to_string();
            for f in module.op_counts.keys() {
                let name = f.name();
                for c in [
                    format!("pendulum_{name}("),
                    format!("pendulum_{name}_batch("),
                ] {
                    assert!(source.contains(&format!("extern \"C\" fn {c}")), "{c}");
                    assert!(header.contains(&format!("int {c}")), "{c}");
                }
            }
            assert!(header.contains(
                "int pendulum_rnea(const double *q, const double *v, const double *a, double *out);"
            ));
            assert!(header.contains(
                "int pendulum_aba_derivatives_batch(size_t n, const double *q, const double *v, \
                 const double *tau, double *out0, double *out1, double *out2);"
            ));
            assert!(header.contains("#define PENDULUM_NULL_POINTER 1"));
            let again = generate_module(URDF, &options, |_| {}).unwrap();
            assert_eq!(again.source().unwrap(), source);
            assert_eq!(again.c_header().unwrap(), header);
        }
        let plain = generate_module(URDF, &Options::default(), |_| {}).unwrap();
        assert!(plain.c_header().is_none());
        assert!(!plain.source().unwrap().contains("extern \"C\""));
    }

    /// The Jacobians of `Options::jacobians` are wrapped as well: every
    /// function the module emits.
    #[test]
    fn jacobians_are_wrapped() {
        let options = Options {
            jacobians: [crate::Function::Rnea].into_iter().collect(),
            functions: [crate::Function::Aba].into_iter().collect(),
            ..c_options(Some(2))
        };
        let module = generate_module(URDF, &options, |_| {}).unwrap();
        let header = module.c_header().unwrap().to_string();
        let source = module.source().unwrap();
        for c in [
            "pendulum_aba(",
            "pendulum_rnea_jacobian(",
            "pendulum_rnea_jacobian_batch(",
        ] {
            assert!(header.contains(&format!("int {c}")), "{c}");
            assert!(source.contains(&format!("extern \"C\" fn {c}")), "{c}");
        }
    }

    /// A prefix that is not a C identifier is refused, naming it.
    #[test]
    fn prefix_is_a_c_identifier() {
        for bad in ["", "2link", "go2-z1", "a b"] {
            let options = Options {
                c_api: Some(bad.into()),
                ..Options::default()
            };
            let err = generate(URDF, &options).unwrap_err();
            assert!(
                matches!(err, GenerateError::Option(ref e) if e.option == crate::OptionKey::CApi
                    && e.message.contains(&format!("`{bad}`"))),
                "{err}"
            );
        }
        assert!(is_c_identifier("go2_z1") && is_c_identifier("_x1"));
    }

    /// The items of a function: the single call, the batch over slices and
    /// its C form, state by state without lanes.
    #[test]
    fn function_items_text() {
        let ty = quote!(f64);
        let items = function_items(&Options::default(), &example_signature(false), "p", &ty);
        assert_eq!(pretty(items), C_ITEMS);
    }

    /// With lanes and threads the batch goes through `lanes::f_into` in
    /// groups and through `f_par` on rayon's pool; a per-frame function
    /// checks its frame index.
    #[test]
    fn function_items_with_lanes_and_threads() {
        let options = Options {
            lanes: Some(2),
            threads: true,
            ..Options::default()
        };
        let ty = quote!(f64);
        let text = pretty(function_items(&options, &example_signature(true), "p", &ty));
        for line in [
            "    let Some(frame) = frame_at(frame) else {",
            "    let r = super::f(unsafe { &*q.cast::<[f64; NQ]>() }, h, frame);",
            "    f_par(q, h, out0, out1, frame, lanes::par_chunk(out0.len(), 7));",
            "    while c < full {",
            "        lanes::f_into(",
            "        if let Ok(s) = <&mut [_; lanes::L]>::try_from(&mut out1[c..c + lanes::L]) {",
            "        || f_par(q_a, h_a, out0_a, out1_a, frame, chunk),",
            "    f_par(q, h, out0, out1, frame, lanes::par_chunk(n, 7));",
        ] {
            assert!(text.contains(&format!("{line}\n")), "{line}");
        }
        assert!(!text.contains("let c = 0;"));
    }

    /// The header around the prototypes: the module's header, the sizes,
    /// the status codes, the frames and the neutral configuration.
    #[test]
    fn header_text() {
        let options = c_options(None);
        let model = crate::build_model(URDF, &options).unwrap();
        let h = c_header(&model, &options, &[], "pendulum", &[" A header */".into()]);
        assert_eq!(h, C_HEADER);
    }

    /// A function's comment and prototypes in the header.
    #[test]
    fn prototypes_text() {
        let mut h = String::new();
        prototypes(
            &mut h,
            &example_signature(true),
            ScalarType::F32,
            "p",
            "float",
        );
        assert_eq!(h, C_PROTOTYPES);
    }

    /// [`function_items`] of `example_signature(false)` with the default
    /// options.
    const C_ITEMS: &str = r##"/// C form of [`super::f`]: `q`: [NQ], `h`: scalar; `out0`: [NV], `out1`: scalar. Returns [`OK`], or [`NULL_POINTER`], [`MISALIGNED`] with nothing written.
///
/// An example.
///
/// # Safety
/// Each pointer is to as many values as its shape holds.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn p_f(
    q: *const f64,
    h: f64,
    out0: *mut f64,
    out1: *mut f64,
) -> i32 {
    if let Some(status) = check(q as *const f64) {
        return status;
    }
    if let Some(status) = check(out0 as *const f64) {
        return status;
    }
    if let Some(status) = check(out1 as *const f64) {
        return status;
    }
    let r = super::f(unsafe { &*q.cast::<[f64; NQ]>() }, h);
    unsafe { out0.cast::<[f64; NV]>().write(r.0) };
    unsafe { out1.cast::<f64>().write(r.1) };
    OK
}
/// [`super::f`] on every state of the slices, state by state; result part `k` of state `i` in `out{k}[i]` (`out[i]` for a single result).
///
/// # Errors
/// The argument whose length differs from the first result's, with its length and
/// the expected one; nothing is written then.
pub fn f_batch(
    q: &[[f64; NQ]],
    h: &[f64],
    out0: &mut [[f64; NV]],
    out1: &mut [f64],
) -> Result<(), (&'static str, usize, usize)> {
    if q.len() != out0.len() {
        return Err(("q", q.len(), out0.len()));
    }
    if h.len() != out0.len() {
        return Err(("h", h.len(), out0.len()));
    }
    if out1.len() != out0.len() {
        return Err(("out1", out1.len(), out0.len()));
    }
    f_each(q, h, out0, out1);
    Ok(())
}
/// The batch after its length checks, on one thread.
fn f_each(q: &[[f64; NQ]], h: &[f64], out0: &mut [[f64; NV]], out1: &mut [f64]) {
    let c = 0;
    for k in c..out0.len() {
        let r = super::f(&q[k], h[k]);
        out0[k] = r.0;
        out1[k] = r.1;
    }
}
/// C form of [`f_batch`]: `n` states one after the other in each argument (`n` times its shape, `n` values for a scalar argument), `n` results per part. Returns [`OK`] (at once for `n = 0`), or [`NULL_POINTER`], [`MISALIGNED`], [`BAD_COUNT`] with nothing written.
///
/// # Safety
/// Each pointer is to `n` states of its shape; results do not overlap arguments or
/// each other.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn p_f_batch(
    n: usize,
    q: *const f64,
    h: *const f64,
    out0: *mut f64,
    out1: *mut f64,
) -> i32 {
    if n == 0 {
        return OK;
    }
    if let Some(status) = check(q as *const f64) {
        return status;
    }
    if let Some(status) = check(h as *const f64) {
        return status;
    }
    if let Some(status) = check(out0 as *const f64) {
        return status;
    }
    if let Some(status) = check(out1 as *const f64) {
        return status;
    }
    if !fits::<[f64; NQ]>(n) {
        return BAD_COUNT;
    }
    if !fits::<f64>(n) {
        return BAD_COUNT;
    }
    if !fits::<[f64; NV]>(n) {
        return BAD_COUNT;
    }
    if !fits::<f64>(n) {
        return BAD_COUNT;
    }
    let q = unsafe { core::slice::from_raw_parts(q.cast::<[f64; NQ]>(), n) };
    let h = unsafe { core::slice::from_raw_parts(h.cast::<f64>(), n) };
    let out0 = unsafe { core::slice::from_raw_parts_mut(out0.cast::<[f64; NV]>(), n) };
    let out1 = unsafe { core::slice::from_raw_parts_mut(out1.cast::<f64>(), n) };
    f_each(q, h, out0, out1);
    OK
}
"##;

    /// [`c_header`] of the double pendulum without functions, its header
    /// line closing a comment.
    const C_HEADER: &str = r##"/*
 * A header * /
 *
 * The C interface of the module above (its `c_api` module), generated by rbdgen.
 * Arrays are double pointers to row-major memory aligned to double; a tuple result is
 * one pointer per part (out0, out1, ...). Every function returns PENDULUM_OK or another
 * status code below, with nothing written. The `_batch` forms take n states one
 * after the other; their results must not overlap their arguments or each other.
 */
#ifndef PENDULUM_H
#define PENDULUM_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Length of the configuration q. */
#define PENDULUM_NQ 2
/* Length of the velocity v, and of a and tau. */
#define PENDULUM_NV 2
/* Number of joints, the universe included: the rows of fext. */
#define PENDULUM_NJOINTS 3
/* Number of actuated dofs: the length of u. */
#define PENDULUM_NU 2
/* Number of link frames of the per-frame functions. */
#define PENDULUM_NFRAMES 3

/* Status codes. */
#define PENDULUM_OK 0 /* success: every result written */
#define PENDULUM_NULL_POINTER 1 /* a pointer argument is null (with n > 0 for a batch); nothing written */
#define PENDULUM_MISALIGNED 2 /* a pointer is not aligned to its scalar type; nothing written */
#define PENDULUM_BAD_FRAME 3 /* the frame index is not below the number of frames; nothing written */
#define PENDULUM_BAD_COUNT 4 /* n states of an argument or result would exceed isize::MAX bytes; nothing written */

/* Frame indices of the per-frame functions (the Rust `Frame::ALL` order). */
#define PENDULUM_FRAME_BASE 0 /* link `base` */
#define PENDULUM_FRAME_UPPER 1 /* link `upper` */
#define PENDULUM_FRAME_LOWER 2 /* link `lower` */

/* The neutral configuration (Pinocchio's `neutral`). */
static const double PENDULUM_NEUTRAL[PENDULUM_NQ] = {0.0, 0.0};

#ifdef __cplusplus
}
#endif

#endif /* PENDULUM_H */
"##;

    /// [`prototypes`] of `example_signature(true)` with `f32`.
    const C_PROTOTYPES: &str = r##"
/*
 * An example.
 *
 * q: [NQ] (values: P_NQ)
 * h: scalar (a value)
 * frame: a frame index P_FRAME_*, below P_NFRAMES (P_BAD_FRAME otherwise)
 * out0: [NV] (values: P_NV)
 * out1: scalar (values: 1)
 * The _batch form takes n states of each argument (n values of a scalar one)
 * and writes n results per part, state after state.
 */
int p_f(const float *q, float h, size_t frame, float *out0, float *out1);
int p_f_batch(size_t n, const float *q, const float *h, size_t frame, float *out0, float *out1);
"##;

    /// Frame constants are upper-cased link names, numbered on a clash.
    #[test]
    fn frame_constant_names() {
        let model = crate::build_model(URDF, &Options::default()).unwrap();
        let names = frame_constants(&model, &Options::default(), "pendulum");
        assert_eq!(names[0].0, "PENDULUM_FRAME_BASE");
        assert!(names
            .iter()
            .any(|(c, l)| c == "PENDULUM_FRAME_LOWER" && l == "lower"));
    }
}
