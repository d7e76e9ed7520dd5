//! The writer of the column form: the stage, the column kernels, and the
//! function that runs the kernels over each chain's columns, one column at
//! a time ([`Writer::looped`]) or [`COLUMN_LANES`] at once
//! ([`Writer::windowed`]).

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote, ToTokens};
use rbdgen_runtime::Model;

use super::COLUMN_LANES;
use super::{lane_arithmetic, op_counts, repeated, stage_shapes, windows, TracedColumns};
use crate::api::{arg_params, mul_add_helper, output_type};
use crate::emit::{print, print_packed, schedule, Arith, Emitted, Inputs, Schedule, Shape, Split};
use crate::emit::{PART_LEN, WHOLE_LEN};
use crate::error::GenerateError;
use crate::functions::{Columns, Dim, Looped, Output};
use crate::graph::OpCounts;
use crate::item::{arg_lens, FunctionItems, Signature};
use crate::item::{function_doc, function_items, into_doc, upper_camel, EntryPoints, IntoForm};
use crate::limbs::Packing;
use crate::options::Options;
use crate::prepare::{check, simplified, within_limit};
use crate::simplify::Stops;
use crate::trace::{Expr, Traced};

/// `spec` in the column form `traced` ([`super::choose_columns`]), its
/// stage with the limbs side by side where `pack` does (the form's rule): the
/// items, and the operation counts as traced and as emitted (all operations
/// run, with [`OpCounts::looped`] those that no written-out copy accounts
/// for).
///
/// # Errors
/// [`GenerateError::NonFinite`] from [`check`]; [`GenerateError::TooLarge`]
/// when the operations written out pass [`Options::max_ops`].
pub(crate) fn emit_columns(
    model: &Model,
    spec: &Signature,
    traced: TracedColumns<'_>,
    options: &Options,
    pack: &dyn Fn(&Traced) -> Option<Packing>,
) -> Result<(FunctionItems, OpCounts, OpCounts), GenerateError> {
    let TracedColumns {
        form: columns,
        stage,
        kernels,
    } = traced;
    let groups = model.topology().dof_chains();
    let mut stops = Stops::default();
    let mut traced_counts = OpCounts::default();
    let mut counts = OpCounts::default();
    let mut schedules = Vec::new();
    // The stage is written once; each kernel once (inlined at its one call)
    // and run once per column of its chain.
    let (kernels, graphs): (Vec<_>, Vec<_>) = (kernels.into_iter())
        .map(|(g, l, k)| ((g, l), (k, groups[g].len())))
        .unzip();
    let mut stage_packed = None;
    for (graph, times) in std::iter::once((stage, 1)).chain(graphs) {
        check(model, &graph, &spec.name, options.scalar)?;
        traced_counts += repeated(op_counts(&graph), 1, times);
        let graph = simplified(model, graph, &spec.name, options, &mut stops)?;
        counts += repeated(op_counts(&graph), 1, times);
        schedules.push(schedule(&graph.graph, &graph.outputs, WHOLE_LEN, PART_LEN));
        // The stage (the first graph) with its limbs side by side.
        if schedules.len() == 1 {
            if let Some(packing) = pack(&graph) {
                counts.in_lanes += packing.in_lanes();
                stage_packed = Some((graph, packing));
            }
        }
    }
    within_limit(&spec.name, counts.written(), options)?;
    let fargs: Vec<(&str, _)> = spec.args.iter().map(|(n, d)| (n.as_str(), *d)).collect();
    let writer = Writer {
        model,
        spec,
        options,
        columns,
        kernels,
        schedules,
        stage_packed,
        counts,
        traced_counts,
        fargs: &fargs,
        nf: (columns.factors)(model),
        groups,
    };
    let items = function_items(spec, options, stops, counts.total(), |arith| {
        writer.function(arith)
    });
    Ok((items, traced_counts, counts))
}

/// What writing a column form in one arithmetic reads.
struct Writer<'a> {
    model: &'a Model,
    spec: &'a Signature,
    options: &'a Options,
    columns: &'a Columns<Expr>,
    /// Per kernel: its chain of dofs and looped block.
    kernels: Vec<(usize, &'a Looped<Expr>)>,
    /// The stage's schedule, then each kernel's.
    schedules: Vec<Schedule>,
    /// The stage with its limbs side by side.
    stage_packed: Option<(Traced, Packing)>,
    counts: OpCounts,
    traced_counts: OpCounts,
    fargs: &'a [(&'a str, Dim)],
    /// The number of factors the columns read.
    nf: usize,
    groups: Vec<std::ops::Range<usize>>,
}

/// The types and names of one arithmetic's writing.
struct Typed {
    arith: Arith,
    /// The scalar function's kernels on [`COLUMN_LANES`] columns at once.
    by_window: bool,
    ty: TokenStream,
    math: TokenStream,
    zero: TokenStream,
    params: Vec<TokenStream>,
    ret: TokenStream,
    stage_ret: TokenStream,
    /// A kernel's value type: `V` by window, else `ty`.
    column_ty: TokenStream,
}

/// The kernels as written: per kernel its name, chain, the blocks it
/// solves, its text (to find a same one) and its printing.
type Written = Vec<(Ident, usize, Vec<usize>, String, Emitted)>;

impl Writer<'_> {
    /// The output's blocks (one for a function of one output).
    fn blocks(&self) -> Vec<Output> {
        match self.spec.output {
            Output::Tuple(parts) => parts.to_vec(),
            one => vec![one],
        }
    }

    /// The looped block of output `k`, if it is one.
    fn looped(&self, k: usize) -> Option<&Looped<Expr>> {
        self.columns.looped.iter().find(|l| l.block == k)
    }

    /// A looped block whose inputs are `[NV x NV]` is solved in place.
    fn in_place(&self, l: &Looped<Expr>) -> bool {
        (l.rows)(self.model) == self.model.nv
    }

    fn kernel_name(&self, g: usize, k: usize) -> Ident {
        format_ident!("{}_o{k}_column{g}", self.spec.name)
    }

    /// The arguments' names, as identifiers.
    fn names(&self) -> Vec<Ident> {
        (self.fargs.iter())
            .map(|(n, _)| Ident::new(n, Span::call_site()))
            .collect()
    }

    fn typed(&self, arith: Arith) -> Typed {
        // The scalar function runs each kernel on `COLUMN_LANES` columns at
        // once where every kernel is plain arithmetic and a window of them
        // fits.
        let windowed =
            self.model.nv >= COLUMN_LANES && self.schedules[1..].iter().all(lane_arithmetic);
        let by_window = arith == Arith::Scalar && windowed;
        let (ty, math, zero) = match arith {
            Arith::Scalar => (self.options.scalar.ty(), quote!(libm), quote!(0.0)),
            Arith::Lanes => (quote!(V), quote!(V), quote!(V::splat(0.0))),
        };
        let nf_len = Literal::usize_unsuffixed(self.nf);
        let stage_ret = {
            let parts = self
                .blocks()
                .into_iter()
                .enumerate()
                .map(|(k, p)| match self.looped(k) {
                    Some(l) => {
                        let rows = Literal::usize_unsuffixed((l.rows)(self.model));
                        quote!([[#ty; NV]; #rows])
                    }
                    None => output_type(&p, &ty),
                });
            quote!((#(#parts,)* [#ty; #nf_len]))
        };
        Typed {
            arith,
            by_window,
            params: arg_params(self.fargs, &ty),
            ret: output_type(&self.spec.output, &ty),
            stage_ret,
            column_ty: match by_window {
                true => quote!(V),
                false => ty.clone(),
            },
            ty,
            math,
            zero,
        }
    }

    /// The function in `arith`: `NAME_into`, `NAME`, the stage and the
    /// kernels.
    fn function(&self, arith: Arith) -> TokenStream {
        let t = self.typed(arith);
        let stage = self.stage(&t);
        let (written, called) = self.kernels(&t);
        let items = self.kernel_items(&t, written);
        let doc = self.doc(&t);
        if t.by_window {
            self.windowed(&t, stage, &items, &called, &doc)
        } else {
            self.unrolled(&t, stage, &items, &doc)
        }
    }

    /// The shape of the stage's output: the function's outputs (a looped
    /// block's columns' inputs in its place), then the factors.
    fn stage_shape(&self) -> Shape {
        let mut shape = stage_shapes(self.model, self.spec, self.columns);
        shape.push(Shape::Vector(self.nf));
        Shape::Tuple(shape)
    }

    /// The stage printed: with its limbs side by side for the scalar
    /// function when packed (one block, into `out` by window), else in parts.
    fn stage(&self, t: &Typed) -> Emitted {
        let (args, row_len) = arg_lens(self.model, self.fargs);
        let inputs = Inputs::new(&args, &row_len);
        let (scalar, shape) = (self.options.scalar, self.stage_shape());
        match (t.arith, &self.stage_packed) {
            (Arith::Scalar, Some((graph, packing))) => Emitted {
                block: print_packed(
                    &graph.graph,
                    &graph.outputs,
                    packing,
                    &shape,
                    &inputs,
                    &t.math,
                    scalar,
                    t.by_window,
                ),
                parts: Vec::new(),
                by_value: None,
            },
            _ => print(
                &self.schedules[0],
                &shape,
                &inputs,
                &t.math,
                scalar,
                t.arith,
                &Split {
                    prefix: &format!("{}_stage_part", self.spec.name),
                    spill: &format!("{}StageSpill", upper_camel(&self.spec.name)),
                    params: &t.params,
                    names: &self.names(),
                    output: &t.stage_ret,
                },
                t.by_window,
            ),
        }
    }

    /// A kernel's parameters: the factors and its column's inputs.
    fn column_params(&self, t: &Typed, rows: usize) -> [TokenStream; 2] {
        let (ty, column_ty) = (&t.ty, &t.column_ty);
        let nf_len = Literal::usize_unsuffixed(self.nf);
        let rows_len = Literal::usize_unsuffixed(rows);
        [
            quote!(f: &[#ty; #nf_len]),
            quote!(w: &[#column_ty; #rows_len]),
        ]
    }

    /// Each kernel printed, and the name each looped block calls. By window,
    /// a kernel printed as one before it of the same chain (the solves of
    /// `∂τ/∂q` and `∂τ/∂v`) is that one, called for both blocks; by window,
    /// a kernel's values are `COLUMN_LANES` columns (the module's `V`) and it
    /// reads the factors as scalars.
    fn kernels(&self, t: &Typed) -> (Written, Vec<Ident>) {
        let (column_arith, splat) = match t.by_window {
            true => (Arith::Lanes, 1),
            false => (t.arith, 0),
        };
        let column_ty = &t.column_ty;
        let column_ret = quote!([#column_ty; NV]);
        let mut written: Written = Vec::new();
        let mut called = Vec::with_capacity(self.kernels.len());
        for ((g, l), schedule) in self.kernels.iter().zip(&self.schedules[1..]) {
            let rows = (l.rows)(self.model);
            let name = self.kernel_name(*g, l.block);
            let column = print(
                schedule,
                &Shape::Vector(self.model.nv),
                &Inputs {
                    args: &[("f", self.nf), ("w", rows)],
                    row_len: &[],
                    splat,
                },
                &t.math,
                self.options.scalar,
                column_arith,
                &Split {
                    prefix: &format!("{name}_part"),
                    spill: &format!("{}Spill", upper_camel(&name.to_string())),
                    params: &self.column_params(t, rows),
                    names: &[format_ident!("f"), format_ident!("w")],
                    output: &column_ret,
                },
                false,
            );
            let parts = &column.parts;
            let text = format!("{rows} {} {}", column.block, quote!(#(#parts)*));
            let by_window = t.by_window;
            let same = (written.iter_mut())
                .find(|(_, h, _, other, _)| by_window && *h == *g && *other == text);
            match same {
                Some((first, _, blocks, _, _)) => {
                    blocks.push(l.block);
                    called.push(first.clone());
                }
                None => {
                    called.push(name.clone());
                    written.push((name, *g, vec![l.block], text, column));
                }
            }
        }
        (written, called)
    }

    /// The written kernels as items, each with its chain.
    fn kernel_items(&self, t: &Typed, written: Written) -> Vec<(usize, TokenStream)> {
        let nv = self.model.nv;
        let column_ty = &t.column_ty;
        let column_ret = quote!([#column_ty; NV]);
        let items = written.into_iter().map(|(name, g, blocks, _, column)| {
            let rows = (self.looped(blocks[0]).map(|l| (l.rows)(self.model))).unwrap_or(nv);
            let column_params = self.column_params(t, rows);
            let (block, parts) = (column.block, column.parts);
            let (first, last) = (self.groups[g].start + 1, self.groups[g].end);
            let outs: Vec<String> = blocks.iter().map(|k| format!("`o{k}`")).collect();
            let columns_of = match t.by_window {
                true => format!(
                    "Columns `c..c + {COLUMN_LANES}` (lane `k` is column `c + k`) of {} from \
                     their inputs `w` (those columns of the stage's)",
                    outs.join(" and ")
                ),
                false => format!(
                    "Column `c` of {} from its input `w` (column `c` of the stage's)",
                    outs.join(" and ")
                ),
            };
            let doc = format!(
                " {columns_of}, for the columns {first} to {last} (counted from 1), one chain \
                 of dofs."
            );
            let item = quote! {
                #[doc = #doc]
                #[inline(always)]
                fn #name(#(#column_params),*) -> #column_ret #block
                #(#parts)*
            };
            (g, item)
        });
        items.collect()
    }

    /// The function's doc lines: the table's, its cost and its form.
    fn doc(&self, t: &Typed) -> Vec<String> {
        let (counts, traced) = (&self.counts, &self.traced_counts);
        let mut doc = function_doc(self.spec, t.arith, counts, traced, self.options);
        if t.arith == Arith::Scalar {
            let scalar = self.options.scalar;
            let how = match t.by_window {
                true => format!(
                    "the code of one column run on {COLUMN_LANES} columns at once (one per lane \
                     of `wide`'s `{}x{COLUMN_LANES}`)",
                    scalar.name()
                ),
                false => "the code of one column".to_string(),
            };
            doc.push(format!(
                " Written as its stage and, per chain of dofs (a leg, an arm), {how}, looped \
                 over the `NV` columns of {}: in this form it runs more than `unroll_limit` = \
                 {} operations.",
                self.columns.looped_names, self.options.unroll_limit
            ));
            if self.stage_packed.is_some() {
                doc.push(format!(
                    " Its stage is written with its limbs side by side: the limbs of one shape \
                     one per lane of `wide`'s `{}x{}`.",
                    scalar.name(),
                    crate::limbs::LANES
                ));
            }
        }
        doc
    }

    /// `NAME_into` (a copy of `NAME`'s result, as the batch functions'
    /// entry point), then `NAME` with `body`.
    fn entry_points(&self, t: &Typed, doc: &[String], body: TokenStream) -> TokenStream {
        let into_doc = match t.arith {
            Arith::Scalar => format!(
                " [`{}`]'s result copied into `out` (every entry written): in its column \
                 form the function has no form that writes into `out` directly.",
                self.spec.name
            ),
            Arith::Lanes => into_doc(&self.spec.name, t.arith, false),
        };
        let names = self.names();
        let params: Vec<&TokenStream> = t.params.iter().collect();
        EntryPoints {
            arith: t.arith,
            name: &self.spec.name,
            per_frame: false,
            params: &params,
            args: quote!(#(#names),*),
            ret: &t.ret,
            doc,
            body: Some(body),
            into: IntoForm::InlineCopy(into_doc),
        }
        .items()
    }

    /// The outputs (`o0`, ...) and the looped blocks' inputs (`w0`, ...).
    fn outs_and_ins(&self) -> (Vec<Ident>, Vec<Ident>) {
        let n = self.blocks().len();
        let outs = (0..n).map(|k| format_ident!("o{k}")).collect();
        let ins = (0..n).map(|k| format_ident!("w{k}")).collect();
        (outs, ins)
    }

    /// The looped blocks written into fresh outputs (not in place): zeroed.
    fn fresh(&self, t: &Typed, outs: &[Ident]) -> Vec<TokenStream> {
        let zero = &t.zero;
        let fresh = self
            .columns
            .looped
            .iter()
            .filter(|l| !self.in_place(l))
            .map(|l| {
                let o = &outs[l.block];
                quote!(let mut #o = [[#zero; NV]; NV];)
            });
        fresh.collect()
    }

    /// One column at a time: the stage returns its outputs, a loop per chain
    /// runs each looped block's kernel (inlined) column by column.
    fn unrolled(
        &self,
        t: &Typed,
        stage: Emitted,
        items: &[(usize, TokenStream)],
        doc: &[String],
    ) -> TokenStream {
        let (outs, ins) = self.outs_and_ins();
        let bind = (0..outs.len()).map(|k| match self.looped(k) {
            Some(l) if self.in_place(l) => {
                let o = &outs[k];
                quote!(mut #o)
            }
            Some(_) => ins[k].to_token_stream(),
            None => outs[k].to_token_stream(),
        });
        let loops = self.groups.iter().enumerate().map(|(g, range)| {
            let (start, end) = (
                Literal::usize_unsuffixed(range.start),
                Literal::usize_unsuffixed(range.end),
            );
            // One inlined kernel per looped block: the blocks' columns are
            // independent, and the core overlaps them (one call site
            // looping over the blocks was about 20 % slower).
            let solves = self.columns.looped.iter().map(|l| {
                let (o, name) = (&outs[l.block], self.kernel_name(g, l.block));
                let w = if self.in_place(l) { o } else { &ins[l.block] };
                quote! {
                    let x = #name(&f, &core::array::from_fn(|i| #w[i][c]));
                    for i in 0..NV {
                        #o[i][c] = x[i];
                    }
                }
            });
            quote! {
                for c in #start..#end {
                    #(#solves)*
                }
            }
        });
        let result = match outs.as_slice() {
            [one] => quote!(#one),
            all => quote!((#(#all),*)),
        };
        let (stage_name, names, fresh) = (self.stage_name(), self.names(), self.fresh(t, &outs));
        let body = quote!({
            let (#(#bind,)* f) = #stage_name(#(#names),*);
            #(#fresh)*
            #(#loops)*
            #result
        });
        let entry = self.entry_points(t, doc, body);
        let stage = self.stage_item(t, stage, false);
        let kernels = items.iter().map(|(_, item)| item);
        quote!(#entry #stage #(#kernels)*)
    }

    /// The stage's name, `NAME_stage`.
    fn stage_name(&self) -> Ident {
        format_ident!("{}_stage", self.spec.name)
    }

    /// The stage as a function: returning its outputs, or `into_out` (by
    /// window) writing them into `out`; then its parts.
    fn stage_item(&self, t: &Typed, stage: Emitted, into_out: bool) -> TokenStream {
        let (name, params, ret) = (self.stage_name(), &t.params, &t.stage_ret);
        let (block, parts) = (stage.block, stage.parts);
        match into_out {
            false => quote! {
                /// The outputs before the looped blocks (those hold their columns'
                /// inputs), then the factors the columns read.
                #[allow(unused_variables)]
                fn #name(#(#params),*) -> #ret #block
                #(#parts)*
            },
            true => quote! {
                /// The outputs before the looped blocks (those hold their columns'
                /// inputs), then the factors the columns read, into `out`, which
                /// holds zeros (every entry but the constant zeros is written).
                #[allow(unused_variables)]
                fn #name(#(#params,)* out: &mut #ret) #block
                #(#parts)*
            },
        }
    }

    /// [`COLUMN_LANES`] columns at once: the stage writes into a local `s`,
    /// the module `NAME_columns` solves every looped block window by window,
    /// chain by chain (a module per chain).
    fn windowed(
        &self,
        t: &Typed,
        stage: Emitted,
        items: &[(usize, TokenStream)],
        called: &[Ident],
        doc: &[String],
    ) -> TokenStream {
        let (outs, ins) = self.outs_and_ins();
        let ty = &t.ty;
        let nf_len = Literal::usize_unsuffixed(self.nf);
        let stage_zeros = self.stage_shape().zeros(&t.zero);
        let factors = Literal::usize_unsuffixed(outs.len());
        // `solve`'s parameters and arguments: the factors, then per
        // looped block its outputs in place, or its inputs and outputs.
        let mut solve_params = vec![quote!(f: &[#ty; #nf_len])];
        let mut solve_args = vec![quote!(&s.#factors)];
        let mut solve_names = vec![format_ident!("f")];
        for l in &self.columns.looped {
            let (o, k) = (&outs[l.block], Literal::usize_unsuffixed(l.block));
            if self.in_place(l) {
                solve_params.push(quote!(#o: &mut [[#ty; NV]; NV]));
                solve_args.push(quote!(&mut s.#k));
            } else {
                let (w, rows) = (
                    &ins[l.block],
                    Literal::usize_unsuffixed((l.rows)(self.model)),
                );
                solve_params.push(quote!(#w: &[[#ty; NV]; #rows]));
                solve_params.push(quote!(#o: &mut [[#ty; NV]; NV]));
                solve_args.push(quote!(&s.#k));
                solve_args.push(quote!(&mut #o));
                solve_names.push(w.clone());
            }
            solve_names.push(o.clone());
        }
        let solves = self.window_solves(called, &outs, &ins);
        let result = (0..outs.len()).map(|k| match self.looped(k) {
            Some(l) if !self.in_place(l) => outs[k].to_token_stream(),
            _ => {
                let k = Literal::usize_unsuffixed(k);
                quote!(s.#k)
            }
        });
        let result: Vec<TokenStream> = result.collect();
        let result = match result.as_slice() {
            [one] => one.clone(),
            all => quote!((#(#all),*)),
        };
        // A module per chain: its kernels inlined into its own function,
        // which rustc compiles in a codegen unit of its own (in one
        // function, all chains took LLVM about twice as long).
        let mut chain_calls = Vec::with_capacity(self.groups.len());
        let mut chains = Vec::with_capacity(self.groups.len());
        for (g, range) in self.groups.iter().enumerate() {
            let chain = format_ident!("chain{g}");
            let solves = solves.iter().filter(|(h, _)| *h == g).map(|(_, s)| s);
            let items = items.iter().filter(|(h, _)| *h == g).map(|(_, i)| i);
            let doc = format!(
                " The columns {} to {} (counted from 1), one chain of dofs.",
                range.start + 1,
                range.end
            );
            chain_calls.push(quote!(#chain::solve(#(#solve_names),*);));
            chains.push(quote! {
                #[doc = #doc]
                mod #chain {
                    #[allow(unused_imports)]
                    use super::*;

                    #[doc = #doc]
                    #[inline(never)]
                    pub(super) fn solve(#(#solve_params),*) {
                        #(#solves)*
                    }

                    #(#items)*
                }
            });
        }
        let module = format_ident!("{}_columns", self.spec.name);
        let module_doc = format!(
            " The column kernels of [`{}`] on {COLUMN_LANES} columns at once: lane `k` of \
             a value is column `c + k` of a window `c..c + {COLUMN_LANES}`. The lanes \
             outside a chain compute what is not stored.",
            self.spec.name
        );
        let helpers = window_helpers(ty, self.options);
        let (stage_name, names, fresh) = (self.stage_name(), self.names(), self.fresh(t, &outs));
        let stage_ret = &t.stage_ret;
        let body = quote!({
            let mut s: #stage_ret = #stage_zeros;
            #stage_name(#(#names,)* &mut s);
            #(#fresh)*
            #module::solve(#(#solve_args),*);
            #result
        });
        let entry = self.entry_points(t, doc, body);
        let stage = self.stage_item(t, stage, true);
        quote! {
            #entry
            #stage
            #[doc = #module_doc]
            mod #module {
                #[allow(unused_imports)]
                use super::*;

                #helpers

                /// Every column of the looped blocks, a window at a time, chain
                /// by chain.
                #[inline(always)]
                pub(super) fn solve(#(#solve_params),*) {
                    #(#chain_calls)*
                }

                #(#chains)*
            }
        }
    }

    /// Per chain, the calls of its kernels on each window of its columns
    /// (`called`: the kernel each looped block calls): several blocks that
    /// share a kernel in a loop over them; a chain of at most half a window
    /// two blocks in one call, half the lanes each.
    fn window_solves(
        &self,
        called: &[Ident],
        outs: &[Ident],
        ins: &[Ident],
    ) -> Vec<(usize, TokenStream)> {
        let nv = self.model.nv;
        let mut solved: Vec<(usize, &Ident, Vec<&Looped<Expr>>)> = Vec::new();
        for ((g, l), kernel) in self.kernels.iter().zip(called) {
            match solved.iter_mut().find(|(_, k, _)| *k == kernel) {
                Some((_, _, ls)) => ls.push(l),
                None => solved.push((*g, kernel, vec![l])),
            }
        }
        let half = COLUMN_LANES / 2;
        let mut solves = Vec::new();
        for (g, kernel, ls) in solved {
            let chain = self.groups[g].clone();
            let (os, ws): (Vec<&Ident>, Vec<&Ident>) = (ls.iter())
                .map(|l| match self.in_place(l) {
                    true => (&outs[l.block], &outs[l.block]),
                    false => (&outs[l.block], &ins[l.block]),
                })
                .unzip();
            let (mut os, mut ws) = (os.as_slice(), ws.as_slice());
            if chain.len() <= half {
                let [c, from, to] = [chain.start.min(nv - half), chain.start, chain.end]
                    .map(Literal::usize_unsuffixed);
                while let ([oa, ob, ..], [wa, wb, ..]) = (os, ws) {
                    solves.push((
                        g,
                        quote! {
                            let x = #kernel(f, &load2(#wa, #wb, #c));
                            store2(#oa, #ob, &x, #c, #from, #to);
                        },
                    ));
                    (os, ws) = (&os[2..], &ws[2..]);
                }
            }
            if os.is_empty() {
                continue;
            }
            for (c, from, to) in windows(chain.clone(), nv) {
                let [c, from, to] = [c, from, to].map(Literal::usize_unsuffixed);
                let body = |w: TokenStream, o: TokenStream| {
                    quote! {
                        let x = #kernel(f, &load(#w, #c));
                        store(#o, &x, #c, #from, #to);
                    }
                };
                let solve = match (os, ws) {
                    ([o], [w]) => body(quote!(#w), quote!(#o)),
                    _ if self.in_place(ls[0]) => {
                        let body = body(quote!(o), quote!(o));
                        quote!(for o in [#(&mut *#os),*] { #body })
                    }
                    _ => {
                        let body = body(quote!(w), quote!(o));
                        quote!(for (w, o) in [#((#ws, &mut *#os)),*] { #body })
                    }
                };
                solves.push((g, solve));
            }
        }
        solves
    }
}

/// The window module's support: its lane type `V`, its multiply-add, and
/// the loads and stores of a window of columns.
fn window_helpers(ty: &TokenStream, options: &Options) -> TokenStream {
    let half = COLUMN_LANES / 2;
    let lane_type = format_ident!("{}x{COLUMN_LANES}", options.scalar.name());
    let mul_add = mul_add_helper(&quote!(V), options.std);
    let load_doc = format!(" Entries `c..c + {COLUMN_LANES}` of every row of `m`, one per lane.");
    let load2_doc = format!(
        " Entries `c..c + {half}` of every row of `a` (the first {half} lanes) and of `b` \
         (the last {half})."
    );
    let store2_doc = format!(
        " The lanes of `x` for the columns `from..to` into `a` (the first {half} lanes, lane \
         `k` column `c + k`) and into `b` (the last {half})."
    );
    let half = Literal::usize_unsuffixed(half);
    quote! {
        /// Columns side by side, one per lane.
        type V = wide::#lane_type;

        #mul_add

        #[doc = #load_doc]
        #[inline(always)]
        fn load<const R: usize>(m: &[[#ty; NV]; R], c: usize) -> [V; R] {
            core::array::from_fn(|i| V::new(core::array::from_fn(|k| m[i][c + k])))
        }

        /// The lanes of `x` for the columns `from..to` (lane `k` is column `c + k`)
        /// into `m`.
        #[inline(always)]
        fn store(m: &mut [[#ty; NV]; NV], x: &[V; NV], c: usize, from: usize, to: usize) {
            for (row, x) in m.iter_mut().zip(x) {
                row[from..to].copy_from_slice(&x.to_array()[from - c..to - c]);
            }
        }

        #[doc = #load2_doc]
        #[allow(dead_code)]
        #[inline(always)]
        fn load2<const R: usize>(a: &[[#ty; NV]; R], b: &[[#ty; NV]; R], c: usize) -> [V; R] {
            core::array::from_fn(|i| {
                V::new(core::array::from_fn(|k| match k < #half {
                    true => a[i][c + k],
                    false => b[i][c + k - #half],
                }))
            })
        }

        #[doc = #store2_doc]
        #[allow(dead_code)]
        #[inline(always)]
        fn store2(
            a: &mut [[#ty; NV]; NV],
            b: &mut [[#ty; NV]; NV],
            x: &[V; NV],
            c: usize,
            from: usize,
            to: usize,
        ) {
            for ((ra, rb), x) in a.iter_mut().zip(b.iter_mut()).zip(x) {
                let x = x.to_array();
                ra[from..to].copy_from_slice(&x[from - c..to - c]);
                rb[from..to].copy_from_slice(&x[#half + from - c..#half + to - c]);
            }
        }
    }
}
