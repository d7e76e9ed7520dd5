//! The `robot_dynamics!` proc macro: reads a URDF at compile time and expands to
//! a module of specialised dynamics functions. It parses its arguments into
//! [`Options`] (keeping the span of each option and list entry), resolves the
//! path, calls [`rbdgen_symbolic::generate_module`] and wraps its items in the
//! module; the generator checks the options, and a wrong one is spanned on
//! what the macro kept for it.

use std::collections::BTreeMap;
use std::path::PathBuf;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token};

use rbdgen_symbolic::{
    description_files, generate_module, parse_functions, read_description, ContactKind,
    GenerateError, OptionError, OptionKey, Options, ScalarType, OPTIONS,
};

#[doc = include_str!("robot_dynamics.md")]
#[proc_macro]
pub fn robot_dynamics(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    match syn::parse::<Args>(input).and_then(|args| expand(&args)) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
    }
}

struct Args {
    vis: syn::Visibility,
    name: Ident,
    path: LitStr,
    options: Options,
    /// Where each option given was written: its key, its list's entries (for
    /// `functions` and `jacobians` in the set's order) and, for
    /// `contact_sets`, each set's contacts.
    spans: BTreeMap<OptionKey, Kept>,
}

#[derive(Default)]
struct Kept {
    key: Option<Span>,
    entries: Vec<Span>,
    nested: Vec<Vec<Span>>,
}

/// The option error as a compile error on the entry (or key) it names.
fn spanned(e: &OptionError, spans: &BTreeMap<OptionKey, Kept>, fallback: Span) -> syn::Error {
    let kept = spans.get(&e.option);
    let entry = kept.and_then(|k| match (e.index, e.entry) {
        (Some(i), Some(j)) => k.nested.get(i).and_then(|set| set.get(j)).copied(),
        (Some(i), None) => k.entries.get(i).copied(),
        _ => None,
    });
    let span = entry.or(kept.and_then(|k| k.key)).unwrap_or(fallback);
    let text = e.render(|s| format!("`{}`", s.macro_key.unwrap_or(s.name)));
    syn::Error::new(span, text)
}

/// A joint or link name: an identifier or a string literal.
fn parse_name(input: ParseStream) -> syn::Result<(String, Span)> {
    if input.peek(LitStr) {
        let s: LitStr = input.parse()?;
        Ok((s.value(), s.span()))
    } else {
        let id: Ident = input.call(syn::ext::IdentExt::parse_any)?;
        Ok((id.to_string(), id.span()))
    }
}

/// `[ITEM, ...]` with `item` parsing one entry into a value and its span.
fn list<T>(
    input: ParseStream,
    item: fn(ParseStream) -> syn::Result<(T, Span)>,
) -> syn::Result<(Vec<T>, Vec<Span>)> {
    let content;
    syn::bracketed!(content in input);
    Ok(content
        .parse_terminated(item, Token![,])?
        .into_iter()
        .unzip())
}

/// A function name: an identifier.
fn parse_ident(input: ParseStream) -> syn::Result<(String, Span)> {
    let id: Ident = input.parse()?;
    Ok((id.to_string(), id.span()))
}

/// `JOINT: VALUE`, the value a (signed) number.
fn parse_armature(input: ParseStream) -> syn::Result<((String, f64), Span)> {
    let (name, span) = parse_name(input)?;
    input.parse::<Token![:]>()?;
    let negative = input.parse::<Option<Token![-]>>()?.is_some();
    let value = match input.parse::<syn::Lit>()? {
        syn::Lit::Float(f) => f.base10_parse::<f64>()?,
        syn::Lit::Int(i) => i.base10_parse::<f64>()?,
        lit => {
            return Err(syn::Error::new(
                lit.span(),
                "expected a number (kg·m² or kg)",
            ))
        }
    };
    Ok(((name, if negative { -value } else { value }), span))
}

/// `LINK: point` or `LINK: 6d`.
fn parse_contact(input: ParseStream) -> syn::Result<((String, ContactKind), Span)> {
    let (name, span) = parse_name(input)?;
    input.parse::<Token![:]>()?;
    let kind: proc_macro2::TokenTree = input.parse()?;
    let text = kind.to_string();
    let kind = ContactKind::from_name(&text).ok_or_else(|| {
        let message = format!("unknown contact type `{text}`; expected `point` or `6d`");
        syn::Error::new(kind.span(), message)
    })?;
    Ok(((name, kind), span))
}

/// `= VALUE` for `key`: the option's value into `o`, its spans into `kept`.
fn parse_value(
    input: ParseStream,
    key: OptionKey,
    o: &mut Options,
    kept: &mut Kept,
) -> syn::Result<()> {
    let value = !matches!(
        key,
        OptionKey::FloatingBase
            | OptionKey::Mimic
            | OptionKey::Simplify
            | OptionKey::Threads
            | OptionKey::Strict
    );
    if value {
        input.parse::<Token![=]>()?;
    }
    match key {
        OptionKey::FloatingBase => o.floating_base = true,
        OptionKey::Mimic => o.mimic = true,
        OptionKey::Simplify => o.simplify = true,
        OptionKey::Threads => o.threads = true,
        OptionKey::Strict => o.strict = true,
        OptionKey::Functions | OptionKey::Jacobians => {
            let (names, spans): (Vec<String>, Vec<Span>) = list(input, parse_ident)?;
            kept.entries = spans;
            let names: Vec<&str> = names.iter().map(String::as_str).collect();
            let set = parse_functions(key, &names).map_err(|e| {
                let spans = BTreeMap::from([(key, std::mem::take(kept))]);
                spanned(&e, &spans, Span::call_site())
            })?;
            // The entries in the set's order, as the generator counts them.
            let mut order: Vec<usize> = (0..names.len()).collect();
            order.sort_by_key(|&k| rbdgen_symbolic::Function::from_name(names[k]));
            kept.entries = order.iter().map(|&k| kept.entries[k]).collect();
            *if key == OptionKey::Functions {
                &mut o.functions
            } else {
                &mut o.jacobians
            } = set;
        }
        OptionKey::Scalar => {
            let ty: Ident = input.parse()?;
            o.scalar = ScalarType::from_name(&ty.to_string()).ok_or_else(|| {
                syn::Error::new(
                    ty.span(),
                    format!("unknown scalar `{ty}`; expected `f64` or `f32`"),
                )
            })?;
        }
        OptionKey::Armature => (o.armature, kept.entries) = list(input, parse_armature)?,
        OptionKey::Contacts => (o.contacts, kept.entries) = list(input, parse_contact)?,
        OptionKey::ContactSets => {
            let content;
            syn::braced!(content in input);
            let sets = content.parse_terminated(
                |input: ParseStream| {
                    let name = parse_name(input)?;
                    input.parse::<Token![:]>()?;
                    Ok((name, list(input, parse_contact)?))
                },
                Token![,],
            )?;
            for ((name, span), (set, spans)) in sets {
                o.contact_sets.push((name, set));
                kept.entries.push(span);
                kept.nested.push(spans);
            }
        }
        OptionKey::Parameters => (o.parameters, kept.entries) = list(input, parse_name)?,
        OptionKey::Frames => {
            let (frames, spans) = list(input, parse_name)?;
            (o.frames, kept.entries) = (Some(frames), spans);
        }
        OptionKey::Lanes => o.lanes = Some(input.parse::<syn::LitInt>()?.base10_parse()?),
        OptionKey::MaxOps => o.max_ops = input.parse::<syn::LitInt>()?.base10_parse()?,
        // Not macro keys: the macro's code always uses `std`; the C
        // interface and user functions are the CLI's and the build script's.
        OptionKey::Std | OptionKey::CApi | OptionKey::UserFunctions => {}
    }
    Ok(())
}

impl Parse for Args {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let vis: syn::Visibility = input.parse()?;
        if !input.peek(Token![mod]) {
            return Err(input.error(
                "expected `mod NAME` first: robot_dynamics!(mod NAME, \"path/to/robot.urdf\", ...)",
            ));
        }
        input.parse::<Token![mod]>()?;
        let name: Ident = input.parse()?;
        input.parse::<Token![,]>()?;
        let path: LitStr = input.parse()?;
        let mut options = Options::default();
        let mut spans = BTreeMap::new();
        while input.parse::<Option<Token![,]>>()?.is_some() && !input.is_empty() {
            let key: Ident = input.parse()?;
            let text = key.to_string();
            let Some(spec) = OPTIONS.iter().find(|s| s.macro_key == Some(text.as_str())) else {
                let known: Vec<String> = OPTIONS
                    .iter()
                    .filter_map(|s| s.macro_key)
                    .map(|k| format!("`{k}`"))
                    .collect();
                let message = format!(
                    "unknown option `{text}`; expected one of {}",
                    known.join(", ")
                );
                return Err(syn::Error::new(key.span(), message));
            };
            let mut kept = Kept {
                key: Some(key.span()),
                ..Kept::default()
            };
            parse_value(input, spec.key, &mut options, &mut kept)?;
            spans.insert(spec.key, kept);
        }
        Ok(Args {
            vis,
            name,
            path,
            options,
            spans,
        })
    }
}

fn expand(args: &Args) -> syn::Result<TokenStream> {
    // One error, on `threads`, rather than that and an unresolved `rayon` in the module.
    if let (Some(kept), true, false) = (
        args.spans.get(&OptionKey::Threads),
        args.options.lanes.is_some(),
        cfg!(feature = "rayon"),
    ) {
        return Err(syn::Error::new(
            kept.key.unwrap_or_else(Span::call_site),
            "threads: `NAME_batch_par` runs on rayon; enable rbdgen's `rayon` feature \
             (rbdgen = { version = \"0.1\", features = [\"rayon\"] })",
        ));
    }
    let relative = args.path.value();
    let error = |msg: String| syn::Error::new(args.path.span(), format!("{relative}: {msg}"));
    let root = std::env::var("RBDGEN_MANIFEST_DIR")
        .or_else(|_| std::env::var("CARGO_MANIFEST_DIR"))
        .map_err(|_| error("CARGO_MANIFEST_DIR is not set".into()))?;
    let full: PathBuf = PathBuf::from(root).join(&relative);
    std::fs::metadata(&full).map_err(|e| error(format!("cannot read {}: {e}", full.display())))?;
    // URDF as is; MJCF (`.xml`, `<mujoco>`) with its includes expanded.
    let urdf = read_description(&full).map_err(|e| error(e.to_string()))?;
    // The file and every file an MJCF `<include>` pulls in: editing any rebuilds.
    let tracked: Vec<String> = description_files(&full)
        .map_err(|e| error(e.to_string()))?
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let options = Options {
        source_name: relative.clone(),
        std: true,
        ..args.options.clone()
    };
    let vis = &args.vis;
    module(
        &quote!(#vis),
        &args.name,
        &urdf,
        &options,
        &tracked,
        args.path.span(),
    )
    .map_err(|e| {
        if let GenerateError::Option(e) = &e {
            return spanned(e, &args.spans, args.path.span());
        }
        // A singular mass matrix is often why a function failed (a constant
        // that evaluates to inf): the model's warnings go with the error.
        let mut message = e.to_string();
        if let Ok(model) = rbdgen_symbolic::build_model(&urdf, &options) {
            for warning in model.physical_warnings() {
                message.push_str(&format!("; warning: {warning}"));
            }
        }
        error(message)
    })
}

/// What `robot_dynamics!` expands to: `vis mod name { items }` with the items
/// of [`rbdgen_symbolic::generate_tokens`] (so that formatting them gives exactly the file
/// `rbdgen generate` writes), a `use` of the `libm` that `rbdgen` re-exports
/// (and of its `wide` with `lanes`, its `rayon` with `threads`), an `include_bytes!` of each
/// of `tracked` (absolute paths: the model's file and the files its MJCF `<include>`s
/// pull in) so that editing any of them triggers a rebuild, and one
/// compiler warning per item of `Module::warnings`, spanned on `span` (a proc
/// macro on stable Rust cannot emit a warning: each is the use of a
/// `#[deprecated]` item whose note is the message).
fn module(
    vis: &TokenStream,
    name: &Ident,
    urdf: &str,
    options: &Options,
    tracked: &[String],
    span: Span,
) -> Result<TokenStream, GenerateError> {
    let module = generate_module(urdf, options, |_| {})?;
    let items = module.tokens;
    let warnings = module.warnings.iter().enumerate().map(|(i, message)| {
        let item = Ident::new(&format!("RBDGEN_WARNING_{i}"), span);
        quote::quote_spanned! {span=>
            #[deprecated(note = #message)]
            #[allow(dead_code)]
            const #item: () = ();
            const _: () = #item;
        }
    });
    // `NAME_batch_par` names `rayon`: rbdgen's, behind its `rayon` feature
    // (a compile error naming the feature without it).
    let rayon = options.threads.then(|| {
        quote! {
            ::rbdgen::__threads_need_rayon!();
            use ::rbdgen::__private::rayon;
        }
    });
    // The lanes' vector type is rbdgen's `wide`.
    let wide = options.lanes.is_some().then(|| {
        quote!(
            use ::rbdgen::__private::wide;
        )
    });
    Ok(quote! {
        #vis mod #name {
            #items
            #rayon
            #wide
            use ::rbdgen::__private::libm;
            // Rebuild when the model's files change.
            #(const _: &[u8] = include_bytes!(#tracked);)*
            #(#warnings)*
        }
    })
}

#[cfg(test)]
mod tests;
