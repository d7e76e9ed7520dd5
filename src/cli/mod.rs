//! The subcommands of `rbdgen`, one module each: arguments and `run`; and the
//! pieces they share.

pub mod compare;
pub mod eval;
pub mod eval_generated;
pub mod generate;
pub mod harness;
pub mod info;
pub mod reference;
pub mod verify;

/// A failed subcommand: the message to print and the process exit code.
#[derive(Debug)]
pub struct Failure {
    /// What went wrong, naming the file or function.
    pub message: String,
    /// 1 for a failed check (a stale file, an error above tolerance), 2 for
    /// anything else (bad input, I/O, a failed build).
    pub code: u8,
}

impl Failure {
    /// A failed check: exit code 1.
    pub fn check(message: String) -> Failure {
        Failure { message, code: 1 }
    }
}

impl From<String> for Failure {
    fn from(message: String) -> Failure {
        Failure { message, code: 2 }
    }
}

/// The arguments that choose the generated code, shared by `generate` and `verify`.
#[derive(clap::Args, Debug)]
pub struct CodeArgs {
    /// The URDF file; its name is written in the header as given.
    pub urdf: std::path::PathBuf,
    /// Give the root link a free-flyer joint.
    #[arg(long)]
    pub floating_base: bool,
    /// Comma-separated functions to emit (rnea, crba, aba, minverse, ..., the names
    /// `robot_dynamics!` takes, listed in the README); all by default.
    #[arg(long, value_delimiter = ',')]
    pub functions: Vec<String>,
    /// Floating-point type of the generated code: f64, or f32 for microcontrollers.
    #[arg(long, default_value = "f64")]
    pub scalar: String,
    /// Simplify each function with egg (rewrite rules, constant folding, DAG
    /// extraction) before emitting it; the header gives operation counts before
    /// and after.
    #[arg(long)]
    pub simplify: bool,
    /// The generated code may use `std`: fused multiply-adds become FMA
    /// instructions on targets that have them (`-C target-cpu=native`); without
    /// it the code is `no_std` and they are a product and a sum
    #[arg(long)]
    pub std: bool,
}

impl CodeArgs {
    /// The URDF text and the generation options these arguments ask for.
    ///
    /// # Errors
    /// An unreadable file, an unknown function or scalar type.
    pub fn load(&self) -> Result<(String, rbdgen::symbolic::Options), String> {
        use rbdgen::symbolic::{Function, Options, ScalarType};
        let text = crate::read(&self.urdf)?;
        let scalar = ScalarType::from_name(&self.scalar)
            .ok_or_else(|| format!("unknown scalar `{}`; expected f64 or f32", self.scalar))?;
        let mut options = Options {
            floating_base: self.floating_base,
            source_name: self.urdf.to_string_lossy().into_owned(),
            scalar,
            simplify: self.simplify,
            std: self.std,
            ..Options::default()
        };
        if !self.functions.is_empty() {
            let known: Vec<&str> = Function::ALL.iter().map(|f| f.name()).collect();
            options.functions = self
                .functions
                .iter()
                .map(|n| {
                    Function::from_name(n).ok_or_else(|| {
                        format!("unknown function `{n}`; known: {}", known.join(", "))
                    })
                })
                .collect::<Result<_, _>>()?;
        }
        Ok((text, options))
    }

    /// Generates the module, with a progress bar on stderr (one step per
    /// function) unless `quiet` or stderr is not a terminal.
    ///
    /// # Errors
    /// As [`CodeArgs::load`], and a URDF that does not make code.
    pub fn generate(
        &self,
        quiet: bool,
    ) -> Result<(String, rbdgen::symbolic::Options, rbdgen::symbolic::Module), String> {
        use std::io::IsTerminal;

        use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
        use rbdgen::symbolic::{generate_module, Progress};

        let (text, options) = self.load()?;
        let bar = ProgressBar::new(options.functions.len() as u64);
        if quiet || !std::io::stderr().is_terminal() {
            bar.set_draw_target(ProgressDrawTarget::hidden());
        } else {
            bar.set_draw_target(ProgressDrawTarget::stderr());
            if let Ok(style) =
                ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} {msg} ({elapsed})")
            {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_prefix("generating");
        }
        let module = generate_module(&text, &options, |step| match step {
            Progress::Start(f) => bar.set_message(f.name()),
            Progress::Done(..) => bar.inc(1),
        })
        .map_err(|e| format!("{}: {e}", self.urdf.display()));
        bar.finish_and_clear();
        Ok((text, options, module?))
    }
}
