//! The outputs besides the module's Rust functions, each one [`Interface`]
//! over the finished module (as prost-build's `ServiceGenerator`): the
//! `lanes` module ([`Lanes`], [`Options::lanes`]), the C interface
//! ([`CApi`], [`Options::c_api`]) and the Python module of a `--python`
//! crate (`Python`, in `python.rs`, which builds that crate above the
//! assembly). The assembly ([`crate::generate`]) hands each
//! function to every interface, then asks each for its items (appended to
//! the module, in [`interfaces`]' order) and its files.
//!
//! A new output is a type here with its `impl Interface`, a field of
//! [`Options`] with its row of [`crate::OPTIONS`], and a line in
//! [`interfaces`].

use proc_macro2::TokenStream;
use quote::quote;
use rbdgen_runtime::Model;

use crate::emit::ScalarType;
use crate::error::GenerateError;
use crate::ffi::{c_api_module, c_header};
use crate::functions::Output;
use crate::item::{FunctionItems, Signature};
use crate::lanes::{lane_wrappers, lanes_module};
use crate::options::Options;

/// The finished module, as the interfaces read it.
pub(crate) struct Finished<'a> {
    pub(crate) model: &'a Model,
    pub(crate) options: &'a Options,
    /// Every function's signature, in the module's order.
    pub(crate) signatures: &'a [Signature],
    /// The module's header lines ([`crate::header::header_doc`]).
    pub(crate) header: &'a [String],
}

/// One output written from the module's functions.
pub(crate) trait Interface {
    /// A function of the module as written: its signature and items (the
    /// lanes kernel among them when [`Options::lanes`] is set).
    fn function(&mut self, _function: &FunctionItems) {}

    /// Its items at the end of the module.
    fn items(&self, _module: &Finished) -> TokenStream {
        TokenStream::new()
    }

    /// Its files beside the module: a name and the text.
    ///
    /// # Errors
    /// What the output cannot write ([`GenerateError::Syntax`] for code that
    /// does not parse, an internal error).
    fn files(&self, _module: &Finished) -> Result<Vec<(String, String)>, GenerateError> {
        Ok(Vec::new())
    }
}

/// The interfaces `options` ask for, in the order of their items in the
/// module: the `lanes` module, then the `c_api` module.
pub(crate) fn interfaces(options: &Options) -> Vec<Box<dyn Interface>> {
    let mut all: Vec<Box<dyn Interface>> = Vec::new();
    if let Some(l) = options.lanes {
        all.push(Box::new(Lanes {
            lanes: l,
            scalar: options.scalar,
            threads: options.threads,
            items: Vec::new(),
        }));
    }
    if let Some(prefix) = &options.c_api {
        all.push(Box::new(CApi {
            prefix: prefix.clone(),
        }));
    }
    all
}

/// The `lanes` module: every function on `L` states at once (its kernel,
/// `NAME_aos`, `NAME_batch`, with threads `NAME_batch_par`) and the support
/// library ([`lanes_module`]).
pub(crate) struct Lanes {
    lanes: usize,
    scalar: ScalarType,
    threads: bool,
    /// Each function's kernel and wrappers.
    items: Vec<TokenStream>,
}

impl Interface for Lanes {
    fn function(&mut self, function: &FunctionItems) {
        let (s, Some(kernel)) = (&function.signature, &function.lanes) else {
            return;
        };
        let args: Vec<(&str, _)> = s.args.iter().map(|(n, d)| (n.as_str(), *d)).collect();
        let wrappers = lane_wrappers(
            &s.name,
            &args,
            &s.output,
            s.per_frame,
            self.scalar,
            self.threads,
            s.ops,
        );
        self.items.push(quote!(#kernel #wrappers));
    }

    fn items(&self, module: &Finished) -> TokenStream {
        let tuple_arity = (module.signatures.iter())
            .map(|s| match s.output {
                Output::Tuple(parts) => parts.len(),
                _ => 0,
            })
            .max()
            .unwrap_or(0);
        let o = module.options;
        lanes_module(
            self.lanes,
            o.scalar,
            o.std,
            o.threads,
            tuple_arity,
            &self.items,
        )
    }
}

/// The C interface: the module `c_api` of `extern "C"` functions
/// ([`c_api_module`]) and its header `PREFIX.h` ([`c_header`]).
pub(crate) struct CApi {
    prefix: String,
}

impl Interface for CApi {
    fn items(&self, module: &Finished) -> TokenStream {
        c_api_module(module.options, module.signatures, &self.prefix)
    }

    fn files(&self, module: &Finished) -> Result<Vec<(String, String)>, GenerateError> {
        let header = c_header(
            module.model,
            module.options,
            module.signatures,
            &self.prefix,
            module.header,
        );
        Ok(vec![(format!("{}.h", self.prefix), header)])
    }
}
