//! The `robot_dynamics!` proc macro: reads a URDF at compile time and expands to
//! a module of specialised dynamics functions. It parses its arguments into
//! [`Options`] (keeping the span of each option and list entry), resolves the
//! path, calls [`rbdgen_symbolic::generate_module`] and wraps its items in the
//! module; the generator checks the options, and a wrong one is spanned on
//! what the macro kept for it.

use std::path::PathBuf;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::Ident;

use rbdgen_symbolic::{
    description_files, generate_module, read_description, GenerateError, OptionKey, Options,
};

mod args;
use args::{macro_key, spanned, Args};

#[doc = include_str!("robot_dynamics.md")]
#[proc_macro]
pub fn robot_dynamics(input: proc_macro::TokenStream) -> proc_macro::TokenStream {
    match syn::parse::<Args>(input).and_then(|args| expand(&args)) {
        Ok(tokens) => tokens.into(),
        Err(e) => e.to_compile_error().into(),
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
        let mut message = e.render(macro_key);
        if let Ok(model) = rbdgen_symbolic::build_model(&urdf, &options) {
            for warning in model.physical_warnings() {
                message.push_str(&format!("; warning: {warning}"));
            }
        }
        error(message)
    })
}

/// What `robot_dynamics!` expands to: `vis mod name { items }` with the items
/// of [`rbdgen_symbolic::Module::tokens`] (so that formatting them gives exactly the file
/// `rbdgen generate` writes), a `use` of the `libm` and `wide` that `rbdgen`
/// re-exports (and of its `rayon` with `threads`), an `include_bytes!` of each
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
    Ok(quote! {
        #vis mod #name {
            #items
            #rayon
            use ::rbdgen::__private::{libm, wide};
            // Rebuild when the model's files change.
            #(const _: &[u8] = include_bytes!(#tracked);)*
            #(#warnings)*
        }
    })
}

#[cfg(test)]
mod tests;
