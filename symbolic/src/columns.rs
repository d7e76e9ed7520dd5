//! The column form of a big function ([`Function::columns`]): the function's
//! work before its solve (the stage) written out as straight-line code, and
//! the solve of one column written once and run in a loop over the columns,
//! instead of one copy per column. `aba_derivatives` of a humanoid is about
//! 100,000 operations written out, half of them seventy copies of the same
//! column solve with other right-hand sides; its column form writes that
//! solve once, so the function's machine code fits the caches that feed the
//! core. The loop's trip count is `NV`, a constant: no branch on the data.
//!
//! A function takes this form when it runs more operations in it (its stage
//! and every column's solve) than [`Options::unroll_limit`]; smaller ones
//! stay straight-line.

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::{format_ident, quote};
use rbdgen_runtime::{Data, Model, Scalar};

use crate::api::{arg_params, output_shape, output_type};
use crate::emit::{print, schedule, Arith, Inputs, Shape, Split, PART_LEN, WHOLE_LEN};
use crate::functions::{Columns, Output};
use crate::generate::{
    check, function_doc, function_items, simplified, upper_camel, FunctionItems, GenerateError,
    Signature,
};
use crate::graph::OpCounts;
use crate::options::Options;
use crate::simplify::Stops;
use crate::trace::{try_trace, Expr, Traced};

/// The function of `spec` in its column form, when it runs more than
/// [`Options::unroll_limit`] operations in it (`None` otherwise): the items,
/// and the operation counts as traced and as emitted (all operations run,
/// with [`OpCounts::looped`] those that no written-out copy accounts for).
pub(crate) fn emit_columns(
    model: &Model,
    spec: &Signature,
    columns: &Columns<Expr>,
    options: &Options,
) -> Result<Option<(FunctionItems, OpCounts, OpCounts)>, GenerateError> {
    let (nv, nf) = (model.nv, (columns.factors)(model));
    let lens: Vec<usize> = spec.args.iter().map(|(_, d)| d.len(model)).collect();
    let failed = |source| GenerateError::Input {
        function: spec.name.clone(),
        source,
    };
    let stage = try_trace(&lens, |x| {
        let mut data = Data::<Expr>::new(model);
        (columns.stage)(model, &mut data, x, None)
    })
    .map_err(failed)?;
    // The columns of a limb share a kernel, which reads only the rows that
    // are not constant zero in any of them (its subtree and the dofs above).
    let groups = limbs(model);
    let mut kernels = Vec::with_capacity(groups.len());
    for range in &groups {
        let rows = nonzero_rows(&stage, columns.looped, nv, range.clone());
        let kernel = try_trace(&[nf, nv], |x| {
            let zero = Expr::constant(0.0);
            let b: Vec<Expr> = (0..nv)
                .map(|i| if rows[i] { x[1][i] } else { zero })
                .collect();
            (columns.kernel)(model, &x[0], &b)
        })
        .map_err(failed)?;
        kernels.push(kernel);
    }
    let blocks_looped = columns.looped.len();
    let run: usize = op_counts(&stage).total()
        + groups
            .iter()
            .zip(&kernels)
            .map(|(r, k)| r.len() * blocks_looped * op_counts(k).total())
            .sum::<usize>();
    if run <= options.unroll_limit {
        return Ok(None);
    }
    let scalar = options.scalar;
    let mut stops = Stops::default();
    let mut traced_counts = OpCounts::default();
    let mut counts = OpCounts::default();
    let mut schedules = Vec::new();
    let runs = groups.iter().map(|r| r.len() * blocks_looped);
    // The stage is written once; each kernel once per looped block (inlined
    // at each call) and run once per column of its limb in each block.
    let stage = (stage, 1, 1);
    let kernels = kernels
        .into_iter()
        .zip(runs)
        .map(|(k, n)| (k, blocks_looped, n));
    for (graph, copies, times) in std::iter::once(stage).chain(kernels) {
        check(model, &graph, &spec.name, scalar)?;
        traced_counts += repeated(op_counts(&graph), copies, times);
        let graph = simplified(model, graph, &spec.name, options, &mut stops)?;
        counts += repeated(op_counts(&graph), copies, times);
        schedules.push(schedule(&graph.graph, &graph.outputs, WHOLE_LEN, PART_LEN));
    }
    if counts.written() > options.max_ops {
        return Err(GenerateError::TooLarge {
            function: spec.name.clone(),
            ops: counts.written(),
            limit: options.max_ops,
        });
    }
    // The output's blocks: a tuple's parts, or the one matrix.
    let blocks: Vec<Output> = match spec.output {
        Output::Tuple(parts) => parts.to_vec(),
        one => vec![one],
    };
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
    let mut stage_shape = match output_shape(&spec.output, model) {
        Shape::Tuple(parts) => parts,
        one => vec![one],
    };
    stage_shape.push(Shape::Vector(nf));
    let stage_shape = Shape::Tuple(stage_shape);
    let nf_len = Literal::usize_unsuffixed(nf);
    let emit = |arith: Arith| -> TokenStream {
        let (ty, math) = match arith {
            Arith::Scalar => (scalar.ty(), quote!(libm)),
            Arith::Lanes => (quote!(V), quote!(V)),
        };
        let params = arg_params(&fargs, &ty);
        let ret = output_type(&spec.output, &ty);
        let stage_ret = {
            let parts = blocks.iter().map(|p| output_type(p, &ty));
            quote!((#(#parts,)* [#ty; #nf_len]))
        };
        let stage = print(
            &schedules[0],
            &stage_shape,
            &Inputs {
                args: &args,
                row_len: &row_len,
            },
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
        );
        let column_params = [quote!(f: &[#ty; #nf_len]), quote!(b: &[#ty; NV])];
        let column_ret = quote!([#ty; NV]);
        let mut kernels = Vec::with_capacity(groups.len());
        for (g, schedule) in schedules[1..].iter().enumerate() {
            let column = print(
                schedule,
                &Shape::Vector(nv),
                &Inputs {
                    args: &[("f", nf), ("b", nv)],
                    row_len: &[],
                },
                &math,
                scalar,
                arith,
                &Split {
                    prefix: &format!("{}_column{g}_part", spec.name),
                    spill: &format!("{camel}Column{g}Spill"),
                    params: &column_params,
                    names: &[format_ident!("f"), format_ident!("b")],
                    output: &column_ret,
                },
            );
            let name = format_ident!("{}_column{g}", spec.name);
            let (block, parts) = (column.block, column.parts);
            let (first, last) = (groups[g].start + 1, groups[g].end);
            let doc = format!(
                " One column `x` of a looped block from its right-hand side `b`, for the \
                 columns {first} to {last} (counted from 1) of that block."
            );
            kernels.push(quote! {
                #[doc = #doc]
                #[inline(always)]
                fn #name(#(#column_params),*) -> #column_ret #block
                #(#parts)*
            });
        }
        let outs: Vec<Ident> = (0..blocks.len()).map(|k| format_ident!("o{k}")).collect();
        let bind = outs.iter().enumerate().map(|(k, o)| {
            if columns.looped.contains(&k) {
                quote!(mut #o)
            } else {
                quote!(#o)
            }
        });
        let loops = groups.iter().enumerate().map(|(g, range)| {
            let column_name = format_ident!("{}_column{g}", spec.name);
            let (start, end) = (
                Literal::usize_unsuffixed(range.start),
                Literal::usize_unsuffixed(range.end),
            );
            // One inlined solve per looped block: the blocks' solves of a
            // column are independent, and the core overlaps them (one call
            // site looping over the blocks was about 20 % slower).
            let solves = columns.looped.iter().map(|&k| {
                let o = &outs[k];
                quote! {
                    let x = #column_name(&f, &core::array::from_fn(|i| #o[i][c]));
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
        let mut doc = function_doc(spec, arith, &counts, &traced_counts, options);
        if arith == Arith::Scalar {
            doc.push(format!(
                " Written as its stage and one column solve per limb, looped over the `NV` \
                 columns of {}: in this form it runs more than `unroll_limit` = {} operations.",
                columns.looped_names, options.unroll_limit
            ));
        }
        let (stage_block, stage_parts) = (stage.block, stage.parts);
        let result = match outs.as_slice() {
            [one] => quote!(#one),
            all => quote!((#(#all),*)),
        };
        quote! {
            #(#[doc = #doc])*
            #[allow(unused_variables)]
            pub fn #name(#(#params),*) -> #ret {
                let (#(#bind,)* f) = #stage_name(#(#names),*);
                #(#loops)*
                #result
            }
            /// The outputs before the column solves, then the factors the solves read.
            #[allow(unused_variables)]
            fn #stage_name(#(#params),*) -> #stage_ret #stage_block
            #(#stage_parts)*
            #(#kernels)*
        }
    };
    let items = function_items(spec, &fargs, options, stops, emit);
    Ok(Some((items, traced_counts, counts)))
}

/// The columns (dofs) grouped by limb: the chains of the tree, each a range
/// of dofs from a branch (or the root) to the next branch or a leaf, such as
/// a floating base, a leg, a waist, an arm. A limb's right-hand sides are
/// zero outside the rows of its subtree and of the dofs above it.
fn limbs(model: &Model) -> Vec<std::ops::Range<usize>> {
    let parent = model.topology().dof_parents();
    let mut children = vec![0usize; model.nv];
    for p in parent.iter().flatten() {
        children[*p] += 1;
    }
    let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
    for c in 0..model.nv {
        match groups.last_mut() {
            Some(g) if c > 0 && parent[c] == Some(c - 1) && children[c - 1] == 1 => g.end = c + 1,
            _ => groups.push(c..c + 1),
        }
    }
    groups
}

/// The rows of the looped blocks of `stage`'s outputs that are not a
/// constant zero in some column of `columns`.
fn nonzero_rows(
    stage: &Traced,
    looped: &[usize],
    nv: usize,
    columns: std::ops::Range<usize>,
) -> Vec<bool> {
    let mut rows = vec![false; nv];
    for &k in looped {
        for (i, row) in rows.iter_mut().enumerate() {
            for c in columns.clone() {
                let node = stage.outputs[k * nv * nv + i * nv + c];
                *row |= stage.graph.constant_value(node) != Some(0.0);
            }
        }
    }
    rows
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
