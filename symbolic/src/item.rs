//! What every form of a function shares: its signature, the items it
//! becomes (the scalar function and, with lanes, its kernel and wrappers),
//! their doc lines and names. Every form (straight-line, limbs side by side,
//! columns) and every output (C, Python) reads these; none of them reads the
//! assembly above ([`crate::generate`]).

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};

use crate::emit::Arith;
use crate::functions::{Dim, Output};
use crate::graph::OpCounts;
use crate::options::Options;
use crate::simplify::Stops;

/// What emission needs to know of a function besides its graphs: a
/// function of the table ([`Function::spec`]) or the Jacobian of one.
#[derive(Clone, Debug)]
pub(crate) struct Signature {
    pub(crate) name: String,
    pub(crate) args: Vec<(String, Dim)>,
    pub(crate) per_frame: bool,
    pub(crate) output: Output,
    pub(crate) doc: Vec<String>,
    /// The operations one state runs (one frame's, for a per-frame function),
    /// which sizes the tasks of the threaded batch: set by emission, 0 before.
    pub(crate) ops: usize,
}

/// A function's emitted items: the scalar function (with its parts) and,
/// with lanes, the `L`-lane function, its array-of-structures wrapper and its
/// batch function for the `lanes` module.
pub(crate) struct FunctionItems {
    pub(crate) scalar: TokenStream,
    /// The lanes kernel (`NAME` and `NAME_into` over `V`), with lanes.
    pub(crate) lanes: Option<TokenStream>,
    /// Why egg stopped in the windows of the function's simplification
    /// (none without [`Options::simplify`]).
    pub(crate) stops: Stops,
    /// The function's signature, which the C interface wraps.
    pub(crate) signature: Signature,
}

/// A function's entry points in one arithmetic, as every form writes them:
/// `NAME` and `NAME_into` (in the `lanes` module, the kernel `NAME` and
/// `NAME_into`, which its wrappers call).
pub(crate) struct EntryPoints<'a> {
    pub(crate) arith: Arith,
    pub(crate) name: &'a str,
    pub(crate) per_frame: bool,
    /// The parameters (a per-frame function's `frame: Frame` last).
    pub(crate) params: &'a [&'a TokenStream],
    /// The arguments of a call with the same parameters.
    pub(crate) args: TokenStream,
    pub(crate) ret: &'a TokenStream,
    pub(crate) doc: &'a [String],
    /// `NAME`'s body; none for the lanes kernel written into `out`, which
    /// `NAME` then calls on a result zeroed by `Lanes::zero`.
    pub(crate) body: Option<TokenStream>,
    pub(crate) into: IntoForm,
}

/// How `NAME_into` is written.
pub(crate) enum IntoForm {
    /// Its own body, into `out` ([`into_doc`]).
    Body(TokenStream),
    /// A copy of `NAME`'s result into `out`, after `NAME` (a function in one
    /// block), with this doc.
    Copy(String),
    /// A copy of `NAME`'s result, inlined, before `NAME` (the column form),
    /// with this doc.
    InlineCopy(String),
}

impl EntryPoints<'_> {
    /// The items: `NAME` and `NAME_into` in the order and with the
    /// attributes of the form.
    pub(crate) fn items(self) -> TokenStream {
        let name = Ident::new(self.name, Span::call_site());
        let into_name = format_ident!("{}_into", self.name);
        let (params, args, ret) = (self.params, &self.args, self.ret);
        let doc = self.doc;
        let visibility = match self.arith {
            Arith::Scalar => quote!(pub),
            Arith::Lanes => quote!(pub(super)),
        };
        let function = match self.body {
            Some(body) => quote! {
                #(#[doc = #doc])*
                #[allow(unused_variables)]
                pub fn #name(#(#params),*) -> #ret #body
            },
            None => quote! {
                #(#[doc = #doc])*
                pub fn #name(#(#params),*) -> #ret {
                    let mut out = <#ret as Lanes>::zero();
                    #into_name(#args &mut out);
                    out
                }
            },
        };
        let into = |doc: &str, body: TokenStream| {
            quote! {
                #[doc = #doc]
                #[allow(unused_variables)]
                #visibility fn #into_name(#(#params,)* out: &mut #ret) #body
            }
        };
        match self.into {
            IntoForm::Body(body) => {
                let into = into(&into_doc(self.name, self.arith, self.per_frame), body);
                quote!(#function #into)
            }
            IntoForm::Copy(doc) => {
                let into = into(&doc, quote!({ *out = #name(#args); }));
                quote!(#function #into)
            }
            IntoForm::InlineCopy(doc) => quote! {
                #[doc = #doc]
                #[inline]
                #visibility fn #into_name(#(#params,)* out: &mut #ret) {
                    *out = #name(#args);
                }
                #function
            },
        }
    }
}

/// A function's items from its emission in each arithmetic (`emit`): the
/// scalar function, and with lanes the lanes kernel (its wrappers are the
/// `lanes` interface's, [`crate::interface::Lanes`]).
pub(crate) fn function_items(
    spec: &Signature,
    options: &Options,
    stops: Stops,
    ops: usize,
    emit: impl Fn(Arith) -> TokenStream,
) -> FunctionItems {
    FunctionItems {
        stops,
        signature: Signature {
            ops,
            ..spec.clone()
        },
        scalar: emit(Arith::Scalar),
        lanes: options.lanes.map(|_| emit(Arith::Lanes)),
    }
}

/// A function's doc lines in `arith`: the table's lines and its cost (with
/// the count before simplification when simplified) for the scalar
/// function, one line pointing at it for the lanes kernel.
pub(crate) fn function_doc(
    spec: &Signature,
    arith: Arith,
    counts: &OpCounts,
    traced: &OpCounts,
    options: &Options,
) -> Vec<String> {
    match arith {
        Arith::Scalar => {
            let lines = spec.doc.iter().map(|l| match l.is_empty() {
                true => String::new(),
                false => format!(" {l}"),
            });
            let mut doc: Vec<String> = lines.collect();
            doc.push(String::new());
            doc.push(format!(" Cost: {counts}."));
            if options.simplify {
                doc.push(format!(" Before simplification: {} ops.", traced.total()));
            }
            doc
        }
        Arith::Lanes => vec![format!(
            " [`super::{}`] on `L` states at once: every argument and result value is a `V`, one \
             state per lane (structure of arrays); the same operations, lane by lane.",
            spec.name
        )],
    }
}

/// The doc of a function's `NAME_into`, in `arith`.
pub(crate) fn into_doc(name: &str, arith: Arith, per_frame: bool) -> String {
    let same = if per_frame { " for the same frame" } else { "" };
    match arith {
        Arith::Scalar => format!(
            " [`{name}`] into `out`, which must hold zeros where the result is a constant zero \
             (a result zeroed once, or one this function wrote before{same}): every other entry is \
             written. A controller that keeps its result from call to call, as Pinocchio keeps \
             its `Data`, skips the fill of the zeros (a mass matrix's blocks between two limbs, \
             say), which [`{name}`] does on every call."
        ),
        Arith::Lanes => format!(
            " [`{name}`] into `out`, which holds zeros where the result is a constant zero: \
             every other entry is written. The batch functions call it on one result zeroed \
             once."
        ),
    }
}

/// `aba_derivatives` → `AbaDerivatives`.
pub(crate) fn upper_camel(snake: &str) -> String {
    snake
        .split('_')
        .flat_map(|piece| {
            let mut chars = piece.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase())
                .into_iter()
                .chain(chars)
        })
        .collect()
}

/// Each argument's name and length, and its row length for a matrix
/// argument: what [`crate::emit::Inputs`] reads.
pub(crate) fn arg_lens<'a>(
    model: &rbdgen_runtime::Model,
    fargs: &[(&'a str, Dim)],
) -> (Vec<(&'a str, usize)>, Vec<Option<usize>>) {
    let args = fargs.iter().map(|(n, d)| (*n, d.len(model))).collect();
    let row_len = fargs.iter().map(|(_, d)| d.row_len()).collect();
    (args, row_len)
}
