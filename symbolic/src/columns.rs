//! The column forms of big functions ([`Function::columns`]): the
//! function's work before its columns (the stage) written out as
//! straight-line code, and the code of one column written once per chain of
//! dofs and run in a loop over the chain's columns, instead of one copy per
//! column. `aba_derivatives` of a humanoid is about 100,000 operations
//! written out, half of them seventy copies of the same column solve with
//! other right-hand sides; its column form writes that solve once per
//! chain, so the function's machine code fits the caches that feed the
//! core. A second form also loops the columns of `∂τ` before their solves.
//! The loops' trip counts are constants: no branch on the data.
//!
//! A function takes a form when it runs more operations in it (its stage
//! and every column) than the form's [`Columns::limit`] times
//! [`Options::unroll_limit`], and every form before it is taken; smaller
//! ones stay straight-line.
//!
//! In the scalar function of a model of at least [`COLUMN_LANES`] dofs, a
//! kernel runs on that many columns at once, one per lane of a `wide`
//! vector (module `NAME_columns`): the factors it reads are the same in
//! every lane, and a window of columns is a row's contiguous entries, one
//! vector load. Blocks that share a chain's kernel (the solves of `∂τ/∂q`
//! and `∂τ/∂v`) share its code: a loop over the blocks, or, for a chain of
//! at most half a window, one call on both, half the lanes each. The lanes
//! of a window outside its chain compute values that are not stored. Each
//! chain's kernels and windows are a function of their own, in a module of
//! their own (`NAME_columns::chainG`), which rustc compiles as a codegen
//! unit of its own. A kernel of anything but arithmetic (none of the
//! current ones) runs one column at a time, as the lanes module's kernels
//! do.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote, ToTokens};
use rbdgen_runtime::{Data, Model, Scalar};

use crate::api::{arg_params, mul_add_helper, output_shape, output_type};
use crate::emit::{
    print, print_packed, schedule, Arith, Emitted, Inputs, Op, Schedule, Shape, Split, PART_LEN,
    WHOLE_LEN,
};
use crate::error::GenerateError;
use crate::form::limbs_side_by_side;
use crate::functions::{Columns, Dim, Looped, Output};
use crate::graph::OpCounts;
use crate::item::{function_doc, function_items, into_doc, upper_camel, FunctionItems, Signature};
use crate::options::Options;
use crate::prepare::{check, simplified};
use crate::simplify::Stops;
use crate::trace::{try_trace, Expr, Traced};

/// A column form traced: its stage, and a kernel per chain of dofs and
/// looped block.
pub(crate) struct TracedColumns<'a> {
    form: &'a Columns<Expr>,
    stage: Traced,
    /// `(chain, looped block, kernel)`.
    kernels: Vec<(usize, &'a Looped<Expr>, Traced)>,
}

impl TracedColumns<'_> {
    /// The operations run: the stage once, each kernel once per column of
    /// its chain.
    fn run(&self, model: &Model) -> usize {
        let groups = model.topology().dof_chains();
        let kernels =
            (self.kernels.iter()).map(|(g, _, k)| groups[*g].len() * op_counts(k).total());
        op_counts(&self.stage).total() + kernels.sum::<usize>()
    }

    /// The operations written out: the stage and each kernel once.
    fn written(&self) -> usize {
        let kernels = self.kernels.iter().map(|(_, _, k)| op_counts(k).total());
        op_counts(&self.stage).total() + kernels.sum::<usize>()
    }
}

/// Whether the most looped of `forms` (the last) writes out no more than
/// `max_ops` operations as traced (its stage and each kernel once), so that a
/// lower [`Options::unroll_limit`] would bring `spec` under the limit.
pub(crate) fn looped_fits(
    model: &Model,
    spec: &Signature,
    forms: &[Columns<Expr>],
    max_ops: usize,
) -> bool {
    let Some(form) = forms.last() else {
        return false;
    };
    trace_columns(model, spec, form).is_ok_and(|traced| traced.written() <= max_ops)
}

/// The column form of `spec` to emit (`None`: straight-line): the last of
/// `forms`, in order, that runs more than `form.limit ×`
/// [`Options::unroll_limit`] operations (its stage and every column), each
/// taken only when the ones before it are.
pub(crate) fn choose_columns<'a>(
    model: &Model,
    spec: &Signature,
    forms: &'a [Columns<Expr>],
    options: &Options,
) -> Result<Option<TracedColumns<'a>>, GenerateError> {
    let mut chosen = None;
    for form in forms {
        let traced = trace_columns(model, spec, form)?;
        if traced.run(model) <= options.unroll_limit.saturating_mul(form.limit) {
            break;
        }
        chosen = Some(traced);
    }
    Ok(chosen)
}

/// Traces `form`'s stage, then its kernels: the columns of a chain of dofs
/// share a kernel per looped block, in which an input that is the same
/// constant in all of them is that constant (a zero row of a right-hand
/// side, a mask of another chain).
fn trace_columns<'a>(
    model: &Model,
    spec: &Signature,
    form: &'a Columns<Expr>,
) -> Result<TracedColumns<'a>, GenerateError> {
    let (nv, nf) = (model.nv, (form.factors)(model));
    let lens: Vec<usize> = spec.args.iter().map(|(_, d)| d.len(model)).collect();
    let failed = |source| GenerateError::Input {
        function: spec.name.clone(),
        source,
    };
    let stage = try_trace(&lens, |x| {
        let mut data = Data::<Expr>::new(model);
        (form.stage)(model, &mut data, x, None)
    })
    .map_err(failed)?;
    let offsets = offsets(&stage_shapes(model, spec, form));
    let groups = model.topology().dof_chains();
    let mut kernels = Vec::with_capacity(groups.len() * form.looped.len());
    for (g, range) in groups.iter().enumerate() {
        for l in &form.looped {
            let rows = (l.rows)(model);
            let known = known_inputs(&stage, offsets[l.block], rows, nv, range.clone());
            let kernel = try_trace(&[nf, rows], |x| {
                let w: Vec<Expr> = (known.iter().zip(&x[1]))
                    .map(|(k, &x)| k.map_or(x, Expr::constant))
                    .collect();
                (l.kernel)(model, g, &x[0], &w)
            })
            .map_err(failed)?;
            kernels.push((g, l, kernel));
        }
    }
    Ok(TracedColumns {
        form,
        stage,
        kernels,
    })
}

/// The shapes of the stage's output blocks: a looped block's columns'
/// inputs, `[rows x NV]`; the others as in the function's output.
fn stage_shapes(model: &Model, spec: &Signature, form: &Columns<Expr>) -> Vec<Shape> {
    let blocks: Vec<Output> = match spec.output {
        Output::Tuple(parts) => parts.to_vec(),
        one => vec![one],
    };
    (blocks.iter().enumerate())
        .map(|(k, b)| match form.looped.iter().find(|l| l.block == k) {
            Some(l) => Shape::Matrix((l.rows)(model), model.nv),
            None => output_shape(b, model),
        })
        .collect()
}

/// Where each of `shapes` starts in their flat concatenation.
fn offsets(shapes: &[Shape]) -> Vec<usize> {
    let starts = shapes.iter().scan(0, |at, s| {
        let start = *at;
        *at += s.len();
        Some(start)
    });
    starts.collect()
}

/// `spec` in the column form `traced` ([`choose_columns`]): the items, and
/// the operation counts as traced and as emitted (all operations run, with
/// [`OpCounts::looped`] those that no written-out copy accounts for).
pub(crate) fn emit_columns(
    model: &Model,
    spec: &Signature,
    traced: TracedColumns<'_>,
    options: &Options,
) -> Result<(FunctionItems, OpCounts, OpCounts), GenerateError> {
    let TracedColumns {
        form: columns,
        stage,
        kernels,
    } = traced;
    let (nv, nf) = (model.nv, (columns.factors)(model));
    let groups = model.topology().dof_chains();
    let blocks: Vec<Output> = match spec.output {
        Output::Tuple(parts) => parts.to_vec(),
        one => vec![one],
    };
    let looped = |k: usize| columns.looped.iter().find(|l| l.block == k);
    let mut stage_shape = stage_shapes(model, spec, columns);
    let scalar = options.scalar;
    let mut stops = Stops::default();
    let mut traced_counts = OpCounts::default();
    let mut counts = OpCounts::default();
    let mut schedules = Vec::new();
    // The stage is written once; each kernel once (inlined at its one call)
    // and run once per column of its chain.
    let (kernels, graphs): (Vec<_>, Vec<_>) = (kernels.into_iter())
        .map(|(g, l, k)| ((g, l), (k, groups[g].len())))
        .unzip();
    let dims: Vec<Dim> = spec.args.iter().map(|(_, d)| *d).collect();
    let mut stage_packed = None;
    for (graph, times) in std::iter::once((stage, 1)).chain(graphs) {
        check(model, &graph, &spec.name, scalar)?;
        traced_counts += repeated(op_counts(&graph), 1, times);
        let graph = simplified(model, graph, &spec.name, options, &mut stops)?;
        counts += repeated(op_counts(&graph), 1, times);
        schedules.push(schedule(&graph.graph, &graph.outputs, WHOLE_LEN, PART_LEN));
        // The stage (the first graph) with its limbs side by side.
        if schedules.len() == 1 && !options.one_limb_at_a_time {
            if let Some(packing) = limbs_side_by_side(model, &graph, &dims) {
                counts.in_lanes += packing.in_lanes();
                stage_packed = Some((graph, packing));
            }
        }
    }
    if counts.written() > options.max_ops {
        return Err(GenerateError::TooLarge {
            function: spec.name.clone(),
            ops: counts.written(),
            limit: options.max_ops,
            loopable: false,
        });
    }
    let fargs: Vec<(&str, _)> = spec.args.iter().map(|(n, d)| (n.as_str(), *d)).collect();
    let args: Vec<(&str, usize)> = fargs.iter().map(|(n, d)| (*n, d.len(model))).collect();
    let row_len: Vec<Option<usize>> = fargs.iter().map(|(_, d)| d.row_len()).collect();
    let names: Vec<Ident> = fargs
        .iter()
        .map(|(n, _)| Ident::new(n, Span::call_site()))
        .collect();
    let name = Ident::new(&spec.name, Span::call_site());
    let stage_name = format_ident!("{}_stage", spec.name);
    let camel = upper_camel(&spec.name);
    stage_shape.push(Shape::Vector(nf));
    let stage_shape = Shape::Tuple(stage_shape);
    let nf_len = Literal::usize_unsuffixed(nf);
    // A looped block whose inputs are `[NV x NV]` is solved in place.
    let in_place = |l: &Looped<Expr>| (l.rows)(model) == nv;
    let kernel_name = |g: usize, k: usize| format_ident!("{}_o{k}_column{g}", spec.name);
    // The scalar function runs each kernel on `COLUMN_LANES` columns at once
    // where every kernel is plain arithmetic and a window of them fits.
    let windowed = nv >= COLUMN_LANES && schedules[1..].iter().all(lane_arithmetic);
    let module = format_ident!("{}_columns", spec.name);
    let emit = |arith: Arith| -> TokenStream {
        let by_window = arith == Arith::Scalar && windowed;
        let (ty, math, zero) = match arith {
            Arith::Scalar => (scalar.ty(), quote!(libm), quote!(0.0)),
            Arith::Lanes => (quote!(V), quote!(V), quote!(V::splat(0.0))),
        };
        let params = arg_params(&fargs, &ty);
        let ret = output_type(&spec.output, &ty);
        let stage_ret = {
            let parts = blocks.iter().enumerate().map(|(k, p)| match looped(k) {
                Some(l) => {
                    let rows = Literal::usize_unsuffixed((l.rows)(model));
                    quote!([[#ty; NV]; #rows])
                }
                None => output_type(p, &ty),
            });
            quote!((#(#parts,)* [#ty; #nf_len]))
        };
        let inputs = Inputs {
            args: &args,
            row_len: &row_len,
            splat: 0,
        };
        // The scalar stage with its limbs side by side is one block, into
        // `out` by window.
        let stage = match (arith, &stage_packed) {
            (Arith::Scalar, Some((graph, packing))) => Emitted {
                block: print_packed(
                    &graph.graph,
                    &graph.outputs,
                    packing,
                    &stage_shape,
                    &inputs,
                    &math,
                    scalar,
                    by_window,
                ),
                parts: Vec::new(),
                by_value: None,
            },
            _ => print(
                &schedules[0],
                &stage_shape,
                &inputs,
                &math,
                scalar,
                arith,
                &Split {
                    prefix: &format!("{}_stage_part", spec.name),
                    spill: &format!("{camel}StageSpill"),
                    params: &params,
                    names: &names,
                    output: &stage_ret,
                },
                by_window,
            ),
        };
        // By window, a kernel's values are `COLUMN_LANES` columns (the
        // module's `V`) and it reads the factors as scalars.
        let (column_ty, column_arith, splat) = match by_window {
            true => (quote!(V), Arith::Lanes, 1),
            false => (ty.clone(), arith, 0),
        };
        let column_ret = quote!([#column_ty; NV]);
        // Per kernel: its name, chain, blocks and items. By window, a kernel
        // printed as one before it of the same chain (the solves of
        // `∂τ/∂q` and `∂τ/∂v`) is that one, called for both blocks.
        let mut written: Vec<(Ident, usize, Vec<usize>, String, Emitted)> = Vec::new();
        let mut called = Vec::with_capacity(kernels.len());
        for ((g, l), schedule) in kernels.iter().zip(&schedules[1..]) {
            let rows = (l.rows)(model);
            let rows_len = Literal::usize_unsuffixed(rows);
            let column_params = [
                quote!(f: &[#ty; #nf_len]),
                quote!(w: &[#column_ty; #rows_len]),
            ];
            let name = kernel_name(*g, l.block);
            let column = print(
                schedule,
                &Shape::Vector(nv),
                &Inputs {
                    args: &[("f", nf), ("w", rows)],
                    row_len: &[],
                    splat,
                },
                &math,
                scalar,
                column_arith,
                &Split {
                    prefix: &format!("{name}_part"),
                    spill: &format!("{}Spill", upper_camel(&name.to_string())),
                    params: &column_params,
                    names: &[format_ident!("f"), format_ident!("w")],
                    output: &column_ret,
                },
                false,
            );
            let parts = &column.parts;
            let text = format!("{rows} {} {}", column.block, quote!(#(#parts)*));
            let same =
                (written.iter_mut()).find(|(_, h, _, t, _)| by_window && *h == *g && *t == text);
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
        let items = written.into_iter().map(|(name, g, blocks, _, column)| {
            let rows = (looped(blocks[0]).map(|l| (l.rows)(model))).unwrap_or(nv);
            let rows_len = Literal::usize_unsuffixed(rows);
            let column_params = [
                quote!(f: &[#ty; #nf_len]),
                quote!(w: &[#column_ty; #rows_len]),
            ];
            let (block, parts) = (column.block, column.parts);
            let (first, last) = (groups[g].start + 1, groups[g].end);
            let outs: Vec<String> = blocks.iter().map(|k| format!("`o{k}`")).collect();
            let columns_of = match by_window {
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
        let items: Vec<(usize, TokenStream)> = items.collect();
        let outs: Vec<Ident> = (0..blocks.len()).map(|k| format_ident!("o{k}")).collect();
        let ins: Vec<Ident> = (0..blocks.len()).map(|k| format_ident!("w{k}")).collect();
        let fresh = columns.looped.iter().filter(|l| !in_place(l)).map(|l| {
            let o = &outs[l.block];
            quote!(let mut #o = [[#zero; NV]; NV];)
        });
        let fresh: Vec<TokenStream> = fresh.collect();
        let mut doc = function_doc(spec, arith, &counts, &traced_counts, options);
        if arith == Arith::Scalar {
            let how = match by_window {
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
                columns.looped_names, options.unroll_limit
            ));
            if stage_packed.is_some() {
                doc.push(format!(
                    " Its stage is written with its limbs side by side: the limbs of one shape \
                     one per lane of `wide`'s `{}x{}`.",
                    scalar.name(),
                    crate::limbs::LANES
                ));
            }
        }
        let (stage_block, stage_parts) = (stage.block, stage.parts);
        // `NAME_into`, as for straight-line functions (the batch functions'
        // entry point); it copies `NAME`'s result.
        let into_name = format_ident!("{}_into", spec.name);
        let (into_doc, visibility) = match arith {
            Arith::Scalar => (
                format!(
                    " [`{}`]'s result copied into `out` (every entry written): in its column \
                     form the function has no form that writes into `out` directly.",
                    spec.name
                ),
                quote!(pub),
            ),
            Arith::Lanes => (into_doc(&spec.name, arith, false), quote!(pub(super))),
        };
        let into = quote! {
            #[doc = #into_doc]
            #[inline]
            #visibility fn #into_name(#(#params,)* out: &mut #ret) {
                *out = #name(#(#names),*);
            }
        };
        if by_window {
            let stage_zeros = stage_shape.zeros(&zero);
            let factors = Literal::usize_unsuffixed(blocks.len());
            // `solve`'s parameters and arguments: the factors, then per
            // looped block its outputs in place, or its inputs and outputs.
            let mut solve_params = vec![quote!(f: &[#ty; #nf_len])];
            let mut solve_args = vec![quote!(&s.#factors)];
            let mut solve_names = vec![format_ident!("f")];
            for l in &columns.looped {
                let (o, k) = (&outs[l.block], Literal::usize_unsuffixed(l.block));
                if in_place(l) {
                    solve_params.push(quote!(#o: &mut [[#ty; NV]; NV]));
                    solve_args.push(quote!(&mut s.#k));
                } else {
                    let (w, rows) = (&ins[l.block], Literal::usize_unsuffixed((l.rows)(model)));
                    solve_params.push(quote!(#w: &[[#ty; NV]; #rows]));
                    solve_params.push(quote!(#o: &mut [[#ty; NV]; NV]));
                    solve_args.push(quote!(&s.#k));
                    solve_args.push(quote!(&mut #o));
                    solve_names.push(w.clone());
                }
                solve_names.push(o.clone());
            }
            // Per kernel, the blocks it solves: several (sharing its code)
            // in a loop over them, window by window.
            let mut solved: Vec<(usize, &Ident, Vec<&Looped<Expr>>)> = Vec::new();
            for ((g, l), kernel) in kernels.iter().zip(&called) {
                match solved.iter_mut().find(|(_, k, _)| *k == kernel) {
                    Some((_, _, ls)) => ls.push(l),
                    None => solved.push((*g, kernel, vec![l])),
                }
            }
            // A chain of at most half a window's columns solves two blocks in
            // one call, half the lanes each.
            let half = COLUMN_LANES / 2;
            let mut solves = Vec::new();
            for (g, kernel, ls) in solved {
                let chain = groups[g].clone();
                let (os, ws): (Vec<&Ident>, Vec<&Ident>) = (ls.iter())
                    .map(|l| match in_place(l) {
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
                        _ if in_place(ls[0]) => {
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
            let result = (0..blocks.len()).map(|k| match looped(k) {
                Some(l) if !in_place(l) => outs[k].to_token_stream(),
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
            let mut chain_calls = Vec::with_capacity(groups.len());
            let mut chains = Vec::with_capacity(groups.len());
            for (g, range) in groups.iter().enumerate() {
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
            let lane_type = format_ident!("{}x{COLUMN_LANES}", scalar.name());
            let mul_add = mul_add_helper(&quote!(V), options.std);
            let load_doc =
                format!(" Entries `c..c + {COLUMN_LANES}` of every row of `m`, one per lane.");
            let load2_doc = format!(
                " Entries `c..c + {half}` of every row of `a` (the first {half} lanes) and of `b` \
                 (the last {half})."
            );
            let store2_doc = format!(
                " The lanes of `x` for the columns `from..to` into `a` (the first {half} lanes, lane \
                 `k` column `c + k`) and into `b` (the last {half})."
            );
            let half = Literal::usize_unsuffixed(half);
            let module_doc = format!(
                " The column kernels of [`{}`] on {COLUMN_LANES} columns at once: lane `k` of \
                 a value is column `c + k` of a window `c..c + {COLUMN_LANES}`. The lanes \
                 outside a chain compute what is not stored.",
                spec.name
            );
            return quote! {
                #into
                #(#[doc = #doc])*
                #[allow(unused_variables)]
                pub fn #name(#(#params),*) -> #ret {
                    let mut s: #stage_ret = #stage_zeros;
                    #stage_name(#(#names,)* &mut s);
                    #(#fresh)*
                    #module::solve(#(#solve_args),*);
                    #result
                }
                /// The outputs before the looped blocks (those hold their columns'
                /// inputs), then the factors the columns read, into `out`, which
                /// holds zeros (every entry but the constant zeros is written).
                #[allow(unused_variables)]
                fn #stage_name(#(#params,)* out: &mut #stage_ret) #stage_block
                #(#stage_parts)*
                #[doc = #module_doc]
                mod #module {
                    #[allow(unused_imports)]
                    use super::*;

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

                    /// Every column of the looped blocks, a window at a time, chain
                    /// by chain.
                    #[inline(always)]
                    pub(super) fn solve(#(#solve_params),*) {
                        #(#chain_calls)*
                    }

                    #(#chains)*
                }
            };
        }
        let bind = (0..blocks.len()).map(|k| match looped(k) {
            Some(l) if in_place(l) => {
                let o = &outs[k];
                quote!(mut #o)
            }
            Some(_) => ins[k].to_token_stream(),
            None => outs[k].to_token_stream(),
        });
        let loops = groups.iter().enumerate().map(|(g, range)| {
            let (start, end) = (
                Literal::usize_unsuffixed(range.start),
                Literal::usize_unsuffixed(range.end),
            );
            // One inlined kernel per looped block: the blocks' columns are
            // independent, and the core overlaps them (one call site
            // looping over the blocks was about 20 % slower).
            let solves = columns.looped.iter().map(|l| {
                let (o, name) = (&outs[l.block], kernel_name(g, l.block));
                let w = if in_place(l) { o } else { &ins[l.block] };
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
        let kernels = items.iter().map(|(_, item)| item);
        quote! {
            #into
            #(#[doc = #doc])*
            #[allow(unused_variables)]
            pub fn #name(#(#params),*) -> #ret {
                let (#(#bind,)* f) = #stage_name(#(#names),*);
                #(#fresh)*
                #(#loops)*
                #result
            }
            /// The outputs before the looped blocks (those hold their columns'
            /// inputs), then the factors the columns read.
            #[allow(unused_variables)]
            fn #stage_name(#(#params),*) -> #stage_ret #stage_block
            #(#stage_parts)*
            #(#kernels)*
        }
    };
    let items = function_items(spec, &fargs, options, stops, counts.total(), emit);
    Ok((items, traced_counts, counts))
}

/// How many columns the scalar function's kernels run at once: `wide`'s
/// `f64x8` (two 256-bit registers where the target has AVX) or `f32x8`.
/// Unitree G1's `aba_derivatives` ran in 0.88 to 0.90 of the time of one
/// column at a time, Go2+Z1's in about 0.93; their machine code grew from
/// 470 to 511 KiB and from 221 to 238 KiB (AMD EPYC, 2 vCPUs, `-C
/// target-cpu=native`, 2026-12-06; alternating runs, CHANGELOG.md).
/// One column at a time, LLVM's loop vectoriser already ran the loop over
/// a chain's columns four at a time; written as four lanes (`f64x4`), G1's
/// ran 3 to 4 % slower than as eight, likely because two vectors per value
/// give the core two independent chains of the solve's dependent
/// multiply-adds.
pub(crate) const COLUMN_LANES: usize = 8;

/// Whether `schedule` is plain arithmetic (no trigonometry, square root or
/// select), which a kernel runs on [`COLUMN_LANES`] columns at once.
fn lane_arithmetic(schedule: &Schedule) -> bool {
    (schedule.statements.iter()).all(|s| {
        matches!(
            s.op,
            Op::Neg(..) | Op::Add(..) | Op::Sub(..) | Op::Mul(..) | Op::Div(..) | Op::MulAdd(..)
        )
    })
}

/// The windows of [`COLUMN_LANES`] columns of `nv` (at least that many) that
/// cover the columns `chain`: `(c, from, to)`, the window `c..c + 8` storing
/// its columns `from..to`, one after the other; a window that would pass
/// `nv` ends there instead, its first lanes those of columns before it.
fn windows(chain: std::ops::Range<usize>, nv: usize) -> Vec<(usize, usize, usize)> {
    (chain.clone().step_by(COLUMN_LANES))
        .map(|from| {
            let to = (from + COLUMN_LANES).min(chain.end);
            (from.min(nv - COLUMN_LANES), from, to)
        })
        .collect()
}

/// Per row of a looped block's inputs in `stage`'s outputs (`rows x nv`
/// from `at`), its value when it is the same constant in every column of
/// `columns`.
fn known_inputs(
    stage: &Traced,
    at: usize,
    rows: usize,
    nv: usize,
    columns: std::ops::Range<usize>,
) -> Vec<Option<f64>> {
    (0..rows)
        .map(|i| {
            let mut values = columns
                .clone()
                .map(|c| stage.graph.constant_value(stage.outputs[at + i * nv + c]));
            let first = values.next().flatten()?;
            values.all(|v| v == Some(first)).then_some(first)
        })
        .collect()
}

/// The operations of a traced graph.
fn op_counts(t: &Traced) -> OpCounts {
    t.graph.op_counts(&t.outputs)
}

/// `counts` written out `copies` times and run `times` times in all: the
/// runs beyond the copies are looped.
fn repeated(counts: OpCounts, copies: usize, times: usize) -> OpCounts {
    let mut all = OpCounts::default();
    for _ in 0..times {
        all += counts;
    }
    all.looped = counts.total() * times.saturating_sub(copies);
    all
}
