//! Generating the dynamics module from a build script, as `prost-build` and
//! `bindgen` do, for crates that keep proc macros out of their build.
//!
//! ```no_run
//! // build.rs
//! use rbdgen::build::{Config, Function};
//!
//! fn main() {
//!     Config::new("models/go2_z1.urdf")
//!         .floating_base()
//!         .functions(&[Function::Rnea, Function::Crba, Function::Aba])
//!         .generate()
//!         .unwrap_or_else(|e| panic!("{e}"));
//! }
//! ```
//!
//! ```ignore
//! // src/lib.rs (or main.rs): the module `go2_z1`
//! include!(concat!(env!("OUT_DIR"), "/go2_z1.rs"));
//! ```
//!
//! with `[build-dependencies] rbdgen = { version = "0.1", default-features =
//! false }` (no proc macro) and `[dependencies] libm = "0.2"` and `wide = {
//! version = "1", default-features = false }` (the generated code's math:
//! `libm`'s functions, the joint angles' sines and cosines four at a time on
//! `wide`'s vectors, and with [`Config::lanes`] the lanes' vector type).
//! [`Config::generate`] writes `$OUT_DIR/NAME.rs` (`NAME`: the
//! URDF's file stem, or [`Config::module_name`]) and prints
//! `cargo:rerun-if-changed=URDF`, so that editing the URDF reruns the build
//! script.
//!
//! It is the same generator as the macro's and the command line's
//! ([`rbdgen_symbolic::generate()`]). The file is `pub mod NAME { ... }` around
//! exactly the text `rbdgen generate URDF [options]` writes for the same
//! options, byte for byte: the wrapper is there because that text starts with
//! the module's inner doc comment and attributes, which `include!` refuses at
//! the top of a file (E0753). The defaults are the command line's: no
//! `std` (fused multiply-adds as a product and a sum; [`Config::std`] for
//! `f64::mul_add`, which the macro uses), `f64`, every function.
//!
//! Build scripts run unoptimised in debug builds, the tracer with them: add
//! `[profile.dev.build-override] opt-level = 3` to the workspace's
//! `Cargo.toml` for large function sets, as for the macro.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rbdgen_symbolic::{generate_module, GenerateError, Options};
use thiserror::Error;

pub use rbdgen_symbolic::{ContactKind, Dim, Expr, Function, Output, ScalarType, UserFunction};

/// What to generate from one URDF, and where to write it.
///
/// Every option has the meaning of the macro's argument and of the command
/// line's flag of the same name (docs/guide.md, "Options": one table of all
/// three; [`rbdgen_symbolic::OPTIONS`] spells each).
#[derive(Clone, Debug)]
pub struct Config {
    urdf: PathBuf,
    module_name: Option<String>,
    out_dir: Option<PathBuf>,
    options: Options,
    c_api: bool,
    casadi: bool,
}

/// Why [`Config::generate`] failed; every variant names the file at fault.
#[derive(Debug, Error)]
pub enum BuildError {
    /// Neither [`Config::out_dir`] nor the environment variable `OUT_DIR`
    /// (set by cargo for build scripts) says where to write.
    #[error("{}: OUT_DIR is not set (call generate() from a build script, or set Config::out_dir)", urdf.display())]
    NoOutDir {
        /// The URDF of the config.
        urdf: PathBuf,
    },
    /// The module name (the URDF's file stem by default) is not a Rust identifier.
    #[error("{}: `{name}` is not a Rust identifier; name the module with Config::module_name", urdf.display())]
    ModuleName {
        /// The URDF of the config.
        urdf: PathBuf,
        /// The name that is not an identifier.
        name: String,
    },
    /// The URDF could not be read.
    #[error("{}: {source}", urdf.display())]
    Read {
        /// The URDF of the config.
        urdf: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The URDF and options do not make code (a malformed URDF, an unknown
    /// joint, link or frame name, a contact function without contacts, ...);
    /// a wrong option is named by its method (`lanes(): ...`).
    #[error("{}: {}", urdf.display(), describe(source))]
    Generate {
        /// The URDF of the config.
        urdf: PathBuf,
        /// The generator's error.
        source: GenerateError,
    },
    /// The output file could not be written.
    #[error("{}: {source}", path.display())]
    Write {
        /// The output file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
}

impl Config {
    /// A config for the URDF at `urdf` (relative to the crate's root, where
    /// build scripts run), with the command line's defaults: fixed base, every
    /// function, `f64`, no `std`. The header of the generated file names the
    /// URDF as given here (an absolute path is reduced to the file name).
    pub fn new(urdf: impl AsRef<Path>) -> Config {
        let urdf = urdf.as_ref().to_path_buf();
        let options = Options {
            source_name: urdf.to_string_lossy().into_owned(),
            ..Options::default()
        };
        Config {
            urdf,
            module_name: None,
            out_dir: None,
            options,
            c_api: false,
            casadi: false,
        }
    }

    /// Gives the root link a free-flyer joint (`nq += 7`, `nv += 6`).
    pub fn floating_base(mut self) -> Config {
        self.options.floating_base = true;
        self
    }

    /// Models the URDF's `<mimic>` joints (Pinocchio's
    /// `buildModelFromUrdf(.., mimic=True)`): a mimicking joint follows its
    /// primary and leaves `q` and `v` (`rbdgen generate --mimic`).
    pub fn mimic(mut self) -> Config {
        self.options.mimic = true;
        self
    }

    /// Also emits the Jacobian of each of these functions, `NAME_jacobian`, by
    /// automatic differentiation of the traced graph (`--jacobians`; none by
    /// default): one block per argument, a configuration's in the tangent
    /// space.
    pub fn jacobians(mut self, functions: &[Function]) -> Config {
        self.options.jacobians = functions.iter().copied().collect::<BTreeSet<_>>();
        self
    }

    /// Also emits a function written in the build script, with the
    /// derivatives it asks for ([`UserFunction`]: `NAME`, `NAME_jacobian`,
    /// `NAME_gradient`, `NAME_hessian`, `NAME_gauss_newton`), after the
    /// table's functions; with [`Config::lanes`], in lanes too. Call once per
    /// function.
    ///
    /// ```no_run
    /// use rbdgen::build::{Config, Dim, Expr, Function, Output, UserFunction};
    /// use rbdgen::runtime::{center_of_mass, Data, InputError, Model, Scalar};
    ///
    /// /// The residual from the centre of mass to a target point `[3]`.
    /// fn com_error<S: Scalar>(m: &Model, d: &mut Data<S>, x: &[Vec<S>]) -> Result<Vec<S>, InputError> {
    ///     let c = center_of_mass(m, d, &x[0])?;
    ///     Ok((0..3).map(|i| c.0[i] - x[1][i]).collect())
    /// }
    ///
    /// Config::new("models/go2_z1.urdf")
    ///     .floating_base()
    ///     .functions(&[Function::CenterOfMass])
    ///     .user_function(
    ///         UserFunction::new("com_error", Output::Vector(Dim::Fixed(3)), com_error::<Expr>)
    ///             .input("q", Dim::Nq)
    ///             .input("target", Dim::Fixed(3))
    ///             .gauss_newton(&["q"]),
    ///     )
    ///     .generate()
    ///     .unwrap_or_else(|e| panic!("{e}"));
    /// ```
    pub fn user_function(mut self, function: UserFunction) -> Config {
        self.options.user_functions.push(function);
        self
    }

    /// Emits only these functions (every function by default).
    pub fn functions(mut self, functions: &[Function]) -> Config {
        self.options.functions = functions.iter().copied().collect::<BTreeSet<_>>();
        self
    }

    /// The floating-point type of the generated code (`f64` by default).
    pub fn scalar(mut self, scalar: ScalarType) -> Config {
        self.options.scalar = scalar;
        self
    }

    /// Lets the code use `std`: fused multiply-adds become `f64::mul_add`, one
    /// FMA instruction on targets that have it (`-C target-cpu=native`). The
    /// macro's choice; the command line's `--std`.
    pub fn std(mut self) -> Config {
        self.options.std = true;
        self
    }

    /// Simplifies each function with egg before emitting it (`--simplify`).
    pub fn simplify(mut self) -> Config {
        self.options.simplify = true;
        self
    }

    /// Armature (rotor inertia, kg·m² or kg) per joint name, on the diagonal
    /// of `M` in every dynamics function (`--armature JOINT=VALUE,...`).
    pub fn armature(mut self, armature: &[(&str, f64)]) -> Config {
        self.options.armature = armature.iter().map(|&(j, a)| (j.to_string(), a)).collect();
        self
    }

    /// The contact set of the contact functions, in row order (`--contacts
    /// LINK:point,...`).
    pub fn contacts(mut self, contacts: &[(&str, ContactKind)]) -> Config {
        self.options.contacts = contacts.iter().map(|&(l, k)| (l.to_string(), k)).collect();
        self
    }

    /// A named contact set (`--contact-set NAME=LINK:point,...`), one call per
    /// set: the contact functions are emitted once per set, in a submodule
    /// `name` with its `NC` and `CONTACTS`, the other functions once
    /// ([`Options::contact_sets`](rbdgen_symbolic::Options::contact_sets)).
    /// An empty set is flight.
    pub fn contact_set(mut self, name: &str, contacts: &[(&str, ContactKind)]) -> Config {
        let set = contacts.iter().map(|&(l, k)| (l.to_string(), k)).collect();
        self.options.contact_sets.push((name.to_string(), set));
        self
    }

    /// Links whose inertial parameters become the run-time argument `pi` of
    /// every function that reads inertias (`--parameters LINK,...`).
    pub fn parameters(mut self, links: &[&str]) -> Config {
        self.options.parameters = links.iter().map(|l| l.to_string()).collect();
        self
    }

    /// The link frames of the per-frame functions and of `Frame` (all by
    /// default; `--frames LINK,...`).
    pub fn frames(mut self, links: &[&str]) -> Config {
        self.options.frames = Some(links.iter().map(|l| l.to_string()).collect());
        self
    }

    /// Also emits every function over `lanes` states at once (2, 4 or 8; with
    /// `f32` 4, 8 or 16; any other number is an error of
    /// [`Config::generate`]): a module `lanes` (`--lanes`) whose vector type is
    /// the `wide` crate's, which the including crate depends on in any case.
    pub fn lanes(mut self, lanes: usize) -> Config {
        self.options.lanes = Some(lanes);
        self
    }

    /// With [`Config::lanes`], also emits `NAME_batch_par`, the batch split
    /// across rayon's threads (`--threads`): the including crate depends on
    /// `rayon`. Without lanes it is an error of [`Config::generate`].
    pub fn threads(mut self) -> Config {
        self.options.threads = true;
        self
    }

    /// Refuses a model that Pinocchio accepts but no rigid body has (an
    /// impossible link inertia, a massless moving subtree; `--strict`) instead
    /// of printing a `cargo:warning` for it.
    pub fn strict(mut self) -> Config {
        self.options.strict = true;
        self
    }

    /// Writes each limb's operations on their own, one value at a time
    /// (`--one-limb-at-a-time`), instead of the limbs of one shape side by
    /// side in the lanes of `wide`'s `f64x4`
    /// ([`Options::one_limb_at_a_time`](rbdgen_symbolic::Options::one_limb_at_a_time)):
    /// for targets without vector registers.
    pub fn one_limb_at_a_time(mut self) -> Config {
        self.options.one_limb_at_a_time = true;
        self
    }

    /// The most operations one function may have (`--max-ops`;
    /// [`rbdgen_symbolic::DEFAULT_MAX_OPS`] by default).
    pub fn max_ops(mut self, max_ops: usize) -> Config {
        self.options.max_ops = max_ops;
        self
    }

    /// A function with a column form (`minverse`, `aba_derivatives`,
    /// `aba_derivatives_fext`, `rnea_derivatives`, `rnea_derivatives_fext`)
    /// that runs more operations than this in that form (for the columns of
    /// `∂τ`: three times this in `rnea_derivatives`, four in
    /// `aba_derivatives`) writes the code of one column once per chain of
    /// dofs and loops it over the columns (`--unroll-limit`;
    /// [`rbdgen_symbolic::DEFAULT_UNROLL_LIMIT`] by default; 0 always loops).
    pub fn unroll_limit(mut self, unroll_limit: usize) -> Config {
        self.options.unroll_limit = unroll_limit;
        self
    }

    /// Also emits the C interface, prefixed with the module's name
    /// (`--c-api NAME`): a module `NAME::c_api` of `extern "C"` functions
    /// `NAME_FUNCTION(...)` and `NAME_FUNCTION_batch(n, ...)` returning a
    /// status code, and its C header `NAME.h` beside `NAME.rs`
    /// (`rbdgen_symbolic::c_crate` builds a crate of it). The crate that includes the module builds as
    /// a `staticlib` or `cdylib` for C and C++ callers.
    pub fn c_api(mut self) -> Config {
        self.c_api = true;
        self
    }

    /// Also writes the CasADi module `NAME.py` beside `NAME.rs` (`--casadi
    /// NAME`, `NAME` the module's name): the functions as a Python module
    /// whose functions take CasADi SX, MX or numbers and build the traced
    /// graphs as CasADi expressions ([`rbdgen_symbolic::casadi_module`],
    /// docs/casadi.md). Each function is traced a second time for it.
    pub fn casadi(mut self) -> Config {
        self.casadi = true;
        self
    }

    /// The name of the module and of the file `NAME.rs` (the URDF's file stem
    /// by default).
    pub fn module_name(mut self, name: &str) -> Config {
        self.module_name = Some(name.to_string());
        self
    }

    /// The directory to write into, instead of `$OUT_DIR`.
    pub fn out_dir(mut self, dir: impl AsRef<Path>) -> Config {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// The generator's options this config stands for.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Generates the module and writes `OUT_DIR/NAME.rs` (and `NAME.h` with
    /// [`Config::c_api`], `NAME.py` with [`Config::casadi`]), unless it already
    /// holds exactly that text (so that its modification time, and what
    /// depends on it, stays put); prints `cargo:rerun-if-changed=URDF`, and a
    /// `cargo:warning=URDF: ...` for each of the model's warnings
    /// ([`rbdgen_symbolic::Module::warnings`]). Returns the path written.
    ///
    /// # Errors
    /// [`BuildError`]: no `OUT_DIR`, a module name that is not an identifier,
    /// an unreadable URDF, a URDF or options that do not make code, a failed
    /// write.
    pub fn generate(&self) -> Result<PathBuf, BuildError> {
        let urdf = || self.urdf.clone();
        let name = match &self.module_name {
            Some(name) => name.clone(),
            None => self
                .urdf
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
        };
        if !is_identifier(&name) {
            return Err(BuildError::ModuleName { urdf: urdf(), name });
        }
        let dir = match &self.out_dir {
            Some(dir) => dir.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| BuildError::NoOutDir { urdf: urdf() })?,
        };
        // The file, and every file its MJCF `<include>`s pull in.
        let files = rbdgen_symbolic::description_files(&self.urdf)
            .unwrap_or_else(|_| vec![self.urdf.clone()]);
        for file in files {
            println!("cargo:rerun-if-changed={}", file.display());
        }
        let text = std::fs::read_to_string(&self.urdf).map_err(|source| BuildError::Read {
            urdf: urdf(),
            source,
        })?;
        // An MJCF file with its includes expanded; a URDF as is.
        let text = match rbdgen_symbolic::read_description(&self.urdf) {
            Ok(description) => description,
            Err(_) => text,
        };
        let mut options = self.options.clone();
        if self.c_api {
            options.c_api = Some(name.clone());
        }
        let (module, warnings, header) = generate_module(&text, &options, |_| {})
            .and_then(|m| {
                Ok((
                    m.source()?,
                    m.warnings.clone(),
                    m.c_header().map(str::to_string),
                ))
            })
            .map_err(|source| {
                // The model's warnings first: a singular mass matrix is often
                // why a function failed.
                if let Ok(model) = rbdgen_symbolic::build_model(&text, &options) {
                    for warning in model.physical_warnings() {
                        println!("cargo:warning={}: {warning}", self.urdf.display());
                    }
                }
                BuildError::Generate {
                    urdf: urdf(),
                    source,
                }
            })?;
        for warning in warnings {
            println!("cargo:warning={}: {warning}", self.urdf.display());
        }
        if let Some(header) = header {
            let path = dir.join(format!("{name}.h"));
            if std::fs::read(&path).ok().as_deref() != Some(header.as_bytes()) {
                std::fs::write(&path, header).map_err(|source| BuildError::Write {
                    path: path.clone(),
                    source,
                })?;
            }
        }
        if self.casadi {
            let command = format!(
                "rbdgen generate {} {} --casadi {name} -o {name}.py",
                self.urdf.display(),
                rbdgen_symbolic::command_line_options(&options)
            );
            let module = rbdgen_symbolic::casadi_module(&text, &options, &name, &command).map_err(
                |source| BuildError::Generate {
                    urdf: urdf(),
                    source,
                },
            )?;
            let path = dir.join(format!("{name}.py"));
            if std::fs::read(&path).ok().as_deref() != Some(module.source.as_bytes()) {
                std::fs::write(&path, module.source).map_err(|source| BuildError::Write {
                    path: path.clone(),
                    source,
                })?;
            }
        }
        let source = wrap(&name, &module);
        let path = dir.join(format!("{name}.rs"));
        if std::fs::read(&path).ok().as_deref() != Some(source.as_bytes()) {
            std::fs::write(&path, source).map_err(|source| BuildError::Write {
                path: path.clone(),
                source,
            })?;
        }
        Ok(path)
    }
}

/// The generator's error in the build script's words: options named by their
/// [`Config`] methods (`threads(): ...; add lanes()`, `raise the limit with
/// max_ops()`).
fn describe(e: &GenerateError) -> String {
    e.render(|s| format!("{}()", s.method))
}

/// `pub mod NAME {` + `module` + `}`: the file [`Config::generate`] writes.
pub fn wrap(name: &str, module: &str) -> String {
    format!("pub mod {name} {{\n{module}}}\n")
}

/// Whether `name` is a Rust identifier (ASCII; no keyword check).
fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && name != "_"
}
