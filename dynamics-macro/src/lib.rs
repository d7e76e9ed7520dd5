//! The `robot_dynamics!` proc macro: reads a URDF at compile time and expands to
//! a module of specialised dynamics functions. It parses its arguments, resolves
//! the path, and calls [`rbdgen_symbolic::macro_module`]; nothing more.

use std::path::PathBuf;

use proc_macro2::{Span, TokenStream};
use quote::quote;
use syn::parse::{Parse, ParseStream};
use syn::{Ident, LitStr, Token};

use rbdgen_symbolic::{macro_module, Function, Options, ScalarType};

/// Generates a module of rigid-body dynamics functions from a URDF.
///
/// ```text
/// rbdgen::robot_dynamics!(mod go2_z1, "models/go2_z1.urdf", floating_base);
/// rbdgen::robot_dynamics!(mod z1, "models/z1.urdf", functions = [rnea, crba]);
/// ```
///
/// - `mod NAME`: the module to create (`pub(crate)` visibility can be asked with
///   `pub(crate) mod NAME`; the default is `pub`).
/// - the URDF path, relative to the calling crate's `CARGO_MANIFEST_DIR`.
/// - `floating_base`: give the root link a free-flyer joint (`nq += 7`, `nv += 6`).
/// - `functions = [...]`: emit only these (`rnea`, `crba`, `aba`,
///   `frame_placement`, `minverse`, `ccrba`, the frame Jacobians, the derivatives
///   and the configuration-space operations: any name of
///   `rbdgen_symbolic::Function`, listed in the README); all by default.
/// - `scalar = f32`: single-precision code (`f32` arrays, `libm::sinf`, ...)
///   for microcontrollers; `f64` by default.
///
/// A missing or malformed file is a compile error on the path literal, whose
/// message starts with the path as written. Editing the URDF triggers a rebuild.
/// `RBDGEN_MANIFEST_DIR`, when set in the environment of the compiler, replaces
/// `CARGO_MANIFEST_DIR` as the base of the path (for harnesses that compile
/// code outside its crate, such as compile-fail tests).
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
    floating_base: bool,
    functions: Option<Vec<(Function, Span)>>,
    scalar: ScalarType,
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
        let mut floating_base = false;
        let mut functions = None;
        let mut scalar = ScalarType::F64;
        while input.parse::<Option<Token![,]>>()?.is_some() {
            if input.is_empty() {
                break;
            }
            let key: Ident = input.parse()?;
            match key.to_string().as_str() {
                "floating_base" => floating_base = true,
                "functions" => {
                    input.parse::<Token![=]>()?;
                    let content;
                    syn::bracketed!(content in input);
                    let names = content.parse_terminated(Ident::parse, Token![,])?;
                    let mut list = Vec::new();
                    for n in names {
                        let f = Function::from_name(&n.to_string()).ok_or_else(|| {
                            let known: Vec<&str> = Function::ALL.iter().map(|f| f.name()).collect();
                            syn::Error::new(
                                n.span(),
                                format!("unknown function `{n}`; known: {}", known.join(", ")),
                            )
                        })?;
                        list.push((f, n.span()));
                    }
                    functions = Some(list);
                }
                "scalar" => {
                    input.parse::<Token![=]>()?;
                    let ty: Ident = input.parse()?;
                    scalar = ScalarType::from_name(&ty.to_string()).ok_or_else(|| {
                        syn::Error::new(ty.span(), format!("unknown scalar `{ty}`; expected `f64` or `f32`"))
                    })?;
                }
                other => {
                    return Err(syn::Error::new(
                        key.span(),
                        format!(
                        "unknown option `{other}`; expected `floating_base`, `functions = [...]` or `scalar = f32`"
                    ),
                    ))
                }
            }
        }
        Ok(Args {
            vis,
            name,
            path,
            floating_base,
            functions,
            scalar,
        })
    }
}

fn expand(args: &Args) -> syn::Result<TokenStream> {
    let relative = args.path.value();
    let error = |msg: String| syn::Error::new(args.path.span(), format!("{relative}: {msg}"));
    let root = std::env::var("RBDGEN_MANIFEST_DIR")
        .or_else(|_| std::env::var("CARGO_MANIFEST_DIR"))
        .map_err(|_| error("CARGO_MANIFEST_DIR is not set".into()))?;
    let full: PathBuf = PathBuf::from(root).join(&relative);
    let urdf = std::fs::read_to_string(&full)
        .map_err(|e| error(format!("cannot read {}: {e}", full.display())))?;
    let mut options = Options {
        floating_base: args.floating_base,
        source_name: relative.clone(),
        scalar: args.scalar,
        std: true,
        ..Options::default()
    };
    if let Some(list) = &args.functions {
        options.functions = list.iter().map(|(f, _)| *f).collect();
    }
    let vis = &args.vis;
    let full = full.to_string_lossy().into_owned();
    macro_module(&quote!(#vis), &args.name, &urdf, &options, &full)
        .map_err(|e| error(e.to_string()))
}
