//! The straight-line form of a function: each frame's graph written out,
//! one value at a time ([`print`], in parts when the schedule is long) or
//! with the robot's limbs side by side ([`print_packed`], one block). The
//! form is chosen in [`crate::form`]; this module writes it.

use std::collections::BTreeSet;

use proc_macro2::{Ident, Span, TokenStream};
use quote::quote;
use rbdgen_runtime::Model;

use crate::api::{arg_params, output_shape, output_type, selected_frames, variant_name};
use crate::emit::{print, print_packed, schedule, Arith, Inputs, Schedule, Split};
use crate::emit::{PART_LEN, WHOLE_LEN};
use crate::error::GenerateError;
use crate::functions::Dim;
use crate::graph::OpCounts;
use crate::item::{arg_lens, Signature};
use crate::item::{
    function_doc, function_items, upper_camel, EntryPoints, FunctionItems, IntoForm,
};
use crate::limbs::{self, Packing};
use crate::options::Options;
use crate::prepare::{check, simplified, within_limit};
use crate::simplify::Stops;
use crate::trace::Traced;

/// A function's frames traced, checked, simplified when asked and scheduled:
/// one per selected link frame of a per-frame function, else one.
pub(crate) struct Straight {
    /// The arm of each graph: its frame's index and `Frame` variant.
    frames: Vec<Option<(usize, Ident)>>,
    graphs: Vec<Traced>,
    pub(crate) schedules: Vec<Schedule>,
    /// Each graph's limbs side by side, when every graph has them.
    pub(crate) packings: Option<Vec<Packing>>,
    /// Whether the code is written in parts (one function per part), set by
    /// [`crate::form::choose_form`]; never with the limbs side by side.
    pub(crate) in_parts: bool,
    /// The operations emitted (with [`OpCounts::in_lanes`] when packed).
    pub(crate) counts: OpCounts,
    /// The operations as traced.
    pub(crate) traced_counts: OpCounts,
    stops: Stops,
}

impl Straight {
    /// Traces `spec` once per frame (`trace_at(frame)`), checks, simplifies,
    /// counts and schedules each graph, and puts its limbs side by side where
    /// `pack` does (the form's rule).
    ///
    /// # Errors
    /// [`GenerateError::Input`] when the runtime refuses the trace,
    /// [`GenerateError::NonFinite`] from [`check`],
    /// [`GenerateError::TooLarge`] (not loopable) above
    /// [`Options::max_ops`].
    pub(crate) fn trace(
        model: &Model,
        spec: &Signature,
        options: &Options,
        pack: &dyn Fn(&Traced) -> Option<Packing>,
        mut trace_at: impl FnMut(Option<usize>) -> Result<Traced, rbdgen_runtime::InputError>,
    ) -> Result<Straight, GenerateError> {
        let frames = frames(model, spec, options);
        let mut counts = OpCounts::default();
        let mut traced_counts = OpCounts::default();
        let mut stops = Stops::default();
        let mut schedules = Vec::with_capacity(frames.len());
        let (mut packings, mut graphs) = (Vec::new(), Vec::new());
        for frame in &frames {
            let mut traced =
                trace_at(frame.as_ref().map(|f| f.0)).map_err(|source| GenerateError::Input {
                    function: spec.name.clone(),
                    source,
                })?;
            check(model, &traced, &spec.name, options.scalar)?;
            traced_counts += traced.graph.op_counts(&traced.outputs);
            traced = simplified(model, traced, &spec.name, options, &mut stops)?;
            counts += traced.graph.op_counts(&traced.outputs);
            within_limit(&spec.name, counts.total(), options)?;
            schedules.push(schedule(
                &traced.graph,
                &traced.outputs,
                WHOLE_LEN,
                PART_LEN,
            ));
            packings.push(pack(&traced));
            graphs.push(traced);
        }
        // The limbs side by side for every frame, or not at all.
        let packings: Option<Vec<Packing>> = packings.into_iter().collect();
        if let Some(p) = &packings {
            counts.in_lanes = p.iter().map(Packing::in_lanes).sum();
        }
        Ok(Straight {
            frames,
            graphs,
            schedules,
            packings,
            in_parts: false,
            counts,
            traced_counts,
            stops,
        })
    }

    /// The function's items: the scalar function (and `NAME_into`), with
    /// lanes the lanes kernel and wrappers; the operation counts as traced
    /// and as emitted.
    pub(crate) fn emit(
        self,
        model: &Model,
        spec: &Signature,
        options: &Options,
    ) -> (FunctionItems, OpCounts, OpCounts) {
        let fargs: Vec<(&str, Dim)> = spec.args.iter().map(|(n, d)| (n.as_str(), *d)).collect();
        let writer = Writer {
            model,
            spec,
            options,
            form: &self,
            fargs: &fargs,
        };
        let ops = self.counts.total() / self.frames.len().max(1);
        let items = function_items(spec, options, self.stops, ops, |arith| {
            writer.function(arith)
        });
        (items, self.traced_counts, self.counts)
    }
}

/// The arms of a function: one per selected link frame (its index and
/// `Frame` variant) for a per-frame function, else one.
fn frames(model: &Model, spec: &Signature, options: &Options) -> Vec<Option<(usize, Ident)>> {
    if !spec.per_frame {
        return vec![None];
    }
    let mut taken = BTreeSet::new();
    selected_frames(model, options)
        .into_iter()
        .map(|(id, f)| Some((id, variant_name(&f.name, &mut taken))))
        .collect()
}

/// What writing a [`Straight`] function in one arithmetic reads.
struct Writer<'a> {
    model: &'a Model,
    spec: &'a Signature,
    options: &'a Options,
    form: &'a Straight,
    fargs: &'a [(&'a str, Dim)],
}

/// A function's code in one arithmetic: per arm its block (the scalar
/// function's, or the lanes kernel's into `out`), per arm its block into
/// `out` when split, and the parts they call.
#[derive(Default)]
struct Blocks {
    blocks: Vec<TokenStream>,
    into_blocks: Vec<TokenStream>,
    parts: Vec<TokenStream>,
}

impl Writer<'_> {
    /// Whether the function is packed and `arith` is the scalar one (the
    /// lanes kernel is never packed).
    fn packed(&self, arith: Arith) -> bool {
        self.form.packings.is_some() && arith == Arith::Scalar
    }

    /// The function in `arith`: its items and its parts.
    fn function(&self, arith: Arith) -> TokenStream {
        let spec = self.spec;
        let ty = match arith {
            Arith::Scalar => self.options.scalar.ty(),
            Arith::Lanes => quote!(V),
        };
        let params = arg_params(self.fargs, &ty);
        let ret = output_type(&spec.output, &ty);
        // The scalar function keeps its result local (`let mut out = ..`,
        // returned), so that LLVM stores straight into the caller's; its
        // `NAME_into` writes into `out` without the fill. Split into parts,
        // both are calls of the same parts; in one block, `NAME_into` copies
        // `NAME`'s result (a second copy of the block would double its build
        // time, and `NAME` written as a call of `NAME_into` copies its
        // result after the call or, inlined, ran Go2+Z1's `crba` about 20 %
        // slower in scripts/bench).
        // The lanes kernel is always written into `out` (its batches' form).
        let split = self.form.in_parts && !self.packed(arith);
        let code = self.blocks(arith, split, &params, &ret);
        let names = self.names();
        let frame_param = spec.per_frame.then(|| quote!(frame: Frame));
        let params: Vec<&TokenStream> = params.iter().chain(frame_param.as_ref()).collect();
        let (counts, traced) = (&self.form.counts, &self.form.traced_counts);
        let mut doc = function_doc(spec, arith, counts, traced, self.options);
        if self.packed(arith) {
            let v = format!("{}x{}", self.options.scalar.name(), limbs::LANES);
            doc.push(format!(
                " Written with its limbs side by side: the limbs of one shape (the legs of a \
                 quadruped, the arms of a humanoid) one per lane of `wide`'s `{v}`, so that one \
                 vector operation does the work of each limb's; the rest one value at a time."
            ));
        }
        let frame_arg = spec.per_frame.then(|| quote!(frame,));
        let into = match (arith, split) {
            (Arith::Lanes, _) | (Arith::Scalar, true) => {
                IntoForm::Body(self.body(code.into_blocks))
            }
            (Arith::Scalar, false) => IntoForm::Copy(format!(
                " [`{}`]'s result copied into `out` (every entry written): in one block, \
                 the function has no form that skips the fill of its zeros.",
                spec.name
            )),
        };
        let entry = EntryPoints {
            arith,
            name: &spec.name,
            per_frame: spec.per_frame,
            params: &params,
            args: quote!(#(#names,)* #frame_arg),
            ret: &ret,
            doc: &doc,
            body: (arith == Arith::Scalar).then(|| self.body(code.blocks)),
            into,
        };
        let (entry, parts) = (entry.items(), &code.parts);
        quote!(#entry #(#parts)*)
    }

    /// The arguments' names, as identifiers.
    fn names(&self) -> Vec<Ident> {
        (self.fargs.iter())
            .map(|(n, _)| Ident::new(n, Span::call_site()))
            .collect()
    }

    /// Each arm's code in `arith`; `split`: in parts, shared by the scalar
    /// function and its `NAME_into`.
    fn blocks(
        &self,
        arith: Arith,
        split: bool,
        params: &[TokenStream],
        ret: &TokenStream,
    ) -> Blocks {
        let (spec, scalar) = (self.spec, self.options.scalar);
        let math = match arith {
            Arith::Scalar => quote!(libm),
            Arith::Lanes => quote!(V),
        };
        let (args, row_len) = arg_lens(self.model, self.fargs);
        let inputs = Inputs::new(&args, &row_len);
        let shape = output_shape(&spec.output, self.model);
        let names = self.names();
        let mut code = Blocks::default();
        let arms = self.form.frames.iter().zip(&self.form.schedules);
        for (k, (frame, schedule)) in arms.enumerate() {
            if let (true, Some(packings)) = (self.packed(arith), &self.form.packings) {
                let traced = &self.form.graphs[k];
                let (graph, outputs) = (&traced.graph, &traced.outputs);
                code.blocks.push(print_packed(
                    graph,
                    outputs,
                    &packings[k],
                    &shape,
                    &inputs,
                    &math,
                    scalar,
                    false,
                ));
                continue;
            }
            // `Spill` between the function and the frame keeps the names apart
            // (`frame_jacobian_local` of link `world_aligned_x` against
            // `frame_jacobian_local_world_aligned` of link `x`).
            let function = upper_camel(&spec.name);
            let (prefix, spill) = match frame {
                Some((_, variant)) => (
                    format!("{}_{variant}_part", spec.name),
                    format!("{function}Spill{variant}"),
                ),
                None => (format!("{}_part", spec.name), format!("{function}Spill")),
            };
            // Split into parts, the scalar function and its `NAME_into` share
            // one printing (the parts); in one block, `NAME_into` copies.
            let into = arith == Arith::Lanes || split;
            let emitted = print(
                schedule,
                &shape,
                &inputs,
                &math,
                scalar,
                arith,
                &Split {
                    prefix: &prefix,
                    spill: &spill,
                    params,
                    names: &names,
                    output: ret,
                },
                into,
            );
            code.parts.extend(emitted.parts);
            match (arith, emitted.by_value) {
                (Arith::Scalar, Some(by_value)) => {
                    code.blocks.push(by_value);
                    code.into_blocks.push(emitted.block);
                }
                (Arith::Scalar, None) => code.blocks.push(emitted.block),
                (Arith::Lanes, _) => code.into_blocks.push(emitted.block),
            }
        }
        code
    }

    /// The body of the function from its arms' blocks: a `match` on the
    /// frame for a per-frame function, else the one block.
    fn body(&self, blocks: Vec<TokenStream>) -> TokenStream {
        if self.spec.per_frame {
            let arms = self.form.frames.iter().zip(&blocks).map(|(f, block)| {
                let variant = &f.as_ref().expect("a frame per arm").1;
                quote!(Frame::#variant => #block)
            });
            quote!({ match frame { #(#arms),* } })
        } else {
            blocks.into_iter().next().expect("one block")
        }
    }
}
