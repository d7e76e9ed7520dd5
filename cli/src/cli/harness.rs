//! Building and running generated code in a crate of its own: the generated
//! module plus a small `main` that reads states from standard input, calls
//! every function on each, prints the results, and times each function. Used
//! by `rbdgen verify`; any command that needs numbers from the compiled
//! generated code (rather than from the runtime) can use it too.
//!
//! The crate depends on `libm` (and `wide` with lanes, `rayon` with threads),
//! as a user's crate with committed generated code does, and is built with
//! `cargo build --release`.
//!
//! Protocol. Standard input is whitespace-separated numbers: the number of
//! states, the seconds to spend timing each function, then for each function
//! in order and each state, the function's array arguments concatenated (as
//! `f64`, converted to the generated scalar type by `as`; a function's
//! arguments are those of [`Function::args`], so the run-time inertial
//! parameters `pi` come last when the model has them). Standard output has,
//! for each function, a line `NAME NS_PER_CALL`, then one line per state with
//! the outputs flattened row-major (per-frame functions: every frame of
//! `Frame::ALL` in turn), each printed in Rust's round-trip form. A module
//! generated with lanes adds, after each function's lines, a line
//! `NAME/lanes NS_PER_STATE` and one line per state of the same form from
//! `lanes::NAME_batch` over all the states at once (its outputs start as NaN,
//! so an entry the batch does not write shows).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use rbdgen_runtime::Model;
use rbdgen_symbolic::{Dim, Function, Options};

/// A built harness, ready to run.
pub struct Harness {
    binary: PathBuf,
    functions: Vec<Function>,
    /// Per function, the total length of its array arguments.
    widths: Vec<usize>,
    /// The module has lanes: the harness also runs `lanes::NAME_batch`.
    lanes: bool,
}

/// What the compiled generated code returned for one function.
pub struct Run {
    /// The function.
    pub function: Function,
    /// Per state, the outputs flattened row-major (every frame in turn for a
    /// per-frame function), converted to `f64`.
    pub outputs: Vec<Vec<f64>>,
    /// Mean time of one call in nanoseconds (one frame for a per-frame function).
    pub ns_per_call: f64,
    /// With lanes: `lanes::NAME_batch`'s outputs, as `outputs`, and its mean
    /// time per state in nanoseconds.
    pub lanes: Option<(Vec<Vec<f64>>, f64)>,
}

/// The cargo to build with: `$CARGO` when set (as under `cargo run`), else
/// `cargo` on the `PATH`.
pub fn cargo() -> std::ffi::OsString {
    std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into())
}

impl Harness {
    /// Writes the crate for `source` (the output of `generate` for `model`
    /// with `options`; `model` as [`rbdgen_symbolic::build_model`] makes it,
    /// with the options' contacts and parameters) into `dir` and builds it,
    /// reusing an earlier build in the same directory when nothing changed.
    /// Cargo's target directory is `target_dir`, else `dir/target`; a target
    /// directory shared between crates builds their dependencies once, and
    /// each crate's package name then ends in a hash of `dir`, so that no two
    /// crates write the same binary. The harness runs the functions of the
    /// module ([`rbdgen_symbolic::module_functions`]), in that order.
    ///
    /// # Errors
    /// A message when a file cannot be written, cargo is missing, or the build
    /// fails (with the end of the compiler's output).
    pub fn build(
        dir: &Path,
        target_dir: Option<&Path>,
        source: &str,
        model: &Model,
        options: &Options,
    ) -> Result<Harness, String> {
        let mut package = package_name(&model.name, options);
        if target_dir.is_some() {
            let absolute =
                std::path::absolute(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            let hash = rbdgen_symbolic::sha256_hex(&absolute.to_string_lossy());
            package = format!("{package}_{}", &hash[..12]);
        }
        let functions = rbdgen_symbolic::module_functions(model, options);
        let widths: Vec<usize> = functions
            .iter()
            .map(|f| f.args(model).iter().map(|(_, d)| d.len(model)).sum())
            .collect();
        let main = main_source(model, &functions, &widths, options);
        // `sincos4` and the lanes' vector type are `wide`'s; `NAME_batch_par`
        // runs on rayon.
        const WIDE: &str = "wide = { version = \"1\", default-features = false }\n";
        let rayon = if options.threads {
            "rayon = \"1\"\n"
        } else {
            ""
        };
        let manifest = format!(
            "[package]\nname = \"{package}\"\nversion = \"0.0.0\"\nedition = \"2021\"\npublish = false\n\n\
             [dependencies]\nlibm = \"0.2\"\n{WIDE}{rayon}\n\
             # Stand-alone even when placed under another workspace.\n[workspace]\n"
        );
        write_if_changed(&dir.join("Cargo.toml"), &manifest)?;
        write_if_changed(&dir.join("src/main.rs"), &main)?;
        write_if_changed(&dir.join("src/robot.rs"), source)?;
        let target = target_dir.map_or_else(|| dir.join("target"), Path::to_path_buf);
        let output = Command::new(cargo())
            .arg("build")
            .arg("--release")
            .arg("--quiet")
            .arg("--manifest-path")
            .arg(dir.join("Cargo.toml"))
            .env("CARGO_TARGET_DIR", &target)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => format!(
                    "cargo was not found ({e}): building the generated code needs a Rust \
                     toolchain; put `cargo` on the PATH or set CARGO to its path"
                ),
                _ => format!("cannot run cargo: {e}"),
            })?;
        if !output.status.success() {
            let stderr = String::from_utf8_lossy(&output.stderr);
            let lines: Vec<&str> = stderr.lines().collect();
            let tail = lines[lines.len().saturating_sub(40)..].join("\n");
            return Err(format!(
                "building the generated code in {} failed:\n{tail}",
                dir.display()
            ));
        }
        let binary = target
            .join("release")
            .join(format!("{package}{}", std::env::consts::EXE_SUFFIX));
        Ok(Harness {
            binary,
            functions,
            widths,
            lanes: options.lanes.is_some(),
        })
    }

    /// The functions the harness runs, in order.
    pub fn functions(&self) -> &[Function] {
        &self.functions
    }

    /// Runs every function on every state: `inputs[f][s]` is the concatenated
    /// array arguments of function `f` (in the order of [`Harness::functions`])
    /// at state `s`; each function is then timed for about `seconds`.
    ///
    /// # Errors
    /// A message when the inputs do not fit the functions, or the harness
    /// fails or prints something unexpected.
    pub fn run(&self, inputs: &[Vec<Vec<f64>>], seconds: f64) -> Result<Vec<Run>, String> {
        if inputs.len() != self.functions.len() {
            return Err(format!(
                "{} input sets for {} functions",
                inputs.len(),
                self.functions.len()
            ));
        }
        let nstates = inputs.first().map_or(0, Vec::len);
        let mut stdin = format!("{nstates} {seconds:?}\n");
        for ((function, states), &width) in self.functions.iter().zip(inputs).zip(&self.widths) {
            if states.len() != nstates || states.iter().any(|s| s.len() != width) {
                return Err(format!(
                    "{}: expected {nstates} states of {width} numbers",
                    function.name()
                ));
            }
            for state in states {
                for x in state {
                    write!(stdin, "{x:?} ").expect("writing to a String");
                }
                stdin.push('\n');
            }
        }
        let mut child = Command::new(&self.binary)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("{}: {e}", self.binary.display()))?;
        child
            .stdin
            .take()
            .expect("stdin is piped")
            .write_all(stdin.as_bytes())
            .map_err(|e| format!("{}: {e}", self.binary.display()))?;
        let output = child
            .wait_with_output()
            .map_err(|e| format!("{}: {e}", self.binary.display()))?;
        if !output.status.success() {
            return Err(format!(
                "{} failed: {}",
                self.binary.display(),
                String::from_utf8_lossy(&output.stderr)
            ));
        }
        let text = String::from_utf8_lossy(&output.stdout);
        self.parse(&text, nstates)
            .ok_or_else(|| format!("{}: unexpected output", self.binary.display()))
    }

    fn parse(&self, text: &str, nstates: usize) -> Option<Vec<Run>> {
        let mut lines = text.lines();
        let mut runs = Vec::new();
        for &function in &self.functions {
            let (name, ns) = lines.next()?.split_once(' ')?;
            if name != function.name() {
                return None;
            }
            let ns_per_call = ns.parse().ok()?;
            let block = |lines: &mut std::str::Lines| -> Option<Vec<Vec<f64>>> {
                (0..nstates)
                    .map(|_| {
                        lines
                            .next()?
                            .split_ascii_whitespace()
                            .map(|t| t.parse().ok())
                            .collect::<Option<Vec<f64>>>()
                    })
                    .collect()
            };
            let outputs = block(&mut lines)?;
            let lanes = if self.lanes {
                let (name, ns) = lines.next()?.split_once(' ')?;
                if name != format!("{}/lanes", function.name()) {
                    return None;
                }
                let ns = ns.parse().ok()?;
                Some((block(&mut lines)?, ns))
            } else {
                None
            };
            runs.push(Run {
                function,
                outputs,
                ns_per_call,
                lanes,
            });
        }
        Some(runs)
    }
}

/// A package name for the robot and options: lowercase letters, digits and `_`.
fn package_name(robot: &str, options: &Options) -> String {
    let robot: String = robot
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("rbdgen_verify_{robot}_{}", options.scalar.name())
}

fn write_if_changed(path: &Path, text: &str) -> Result<(), String> {
    if std::fs::read(path).is_ok_and(|old| old == text.as_bytes()) {
        return Ok(());
    }
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// The harness's `main.rs`: one block per function, from the function table.
fn main_source(
    model: &Model,
    functions: &[Function],
    widths: &[usize],
    options: &Options,
) -> String {
    let mut blocks = String::new();
    for (function, width) in functions.iter().zip(widths) {
        let spec = function.spec();
        let args = function.args(model);
        let names: Vec<String> = args.iter().map(|(n, _)| format!("arg_{n}")).collect();
        let reads: String = args
            .iter()
            .zip(&names)
            .map(|((_, dim), name)| {
                let len = match dim {
                    Dim::Nq => "robot::NQ".to_string(),
                    Dim::Nv => "robot::NV".to_string(),
                    Dim::Fixed(n) => n.to_string(),
                    Dim::Nu => "robot::NU".to_string(),
                    Dim::TwoNv => "2 * robot::NV".to_string(),
                    Dim::Contacts => "robot::NC".to_string(),
                    Dim::Regressor => "10 * (robot::NJOINTS - 1)".to_string(),
                    Dim::Parameters => {
                        return format!(
                            "let {name}: [[S; 10]; robot::NPARAMETERS] = core::array::from_fn(|_| arg(x, &mut k));\n"
                        )
                    }
                    Dim::Wrenches => {
                        return format!(
                            "let {name}: [[S; 6]; robot::NJOINTS] = core::array::from_fn(|_| arg(x, &mut k));\n"
                        )
                    }
                    Dim::Placement => {
                        return format!(
                            "let {name}: [[S; 4]; 4] = core::array::from_fn(|_| arg(x, &mut k));\n"
                        )
                    }
                    Dim::Scalar => return format!("let {name}: S = arg::<1>(x, &mut k)[0];\n"),
                };
                format!("let {name}: [S; {len}] = arg(x, &mut k);\n")
            })
            .collect();
        let tuple = format!("({},)", names.join(", "));
        let (frame_loop, frame_arg, frame_end) = if spec.per_frame {
            ("for frame in robot::Frame::ALL {", ", frame", "}")
        } else {
            ("", "", "")
        };
        // The loops bind references: a scalar argument is passed by value.
        let passed: Vec<String> = args
            .iter()
            .zip(&names)
            .map(|((_, dim), n)| match dim {
                Dim::Scalar => format!("*{n}"),
                _ => n.clone(),
            })
            .collect();
        let call = format!("robot::{}({}{frame_arg})", spec.name, passed.join(", "));
        let boxed: Vec<String> = passed.iter().map(|n| format!("black_box({n})")).collect();
        let timed_frame = if spec.per_frame {
            ", black_box(frame)"
        } else {
            ""
        };
        let timed = format!("robot::{}({}{timed_frame})", spec.name, boxed.join(", "));
        let name = spec.name;
        let lanes_block = if options.lanes.is_some() {
            let columns: Vec<String> = (0..args.len())
                .map(|i| format!("let col_{i}: Vec<_> = inputs.iter().map(|t| t.{i}).collect();"))
                .collect();
            let cols: String = (0..args.len()).map(|i| format!("&col_{i}, ")).collect();
            let frame = if spec.per_frame { "frame, " } else { "" };
            let batch = format!(
                "robot::lanes::{name}_batch({cols}{frame}&mut outs).expect(\"equal lengths\")"
            );
            format!(
                "{{
            {columns}
            let mut outs: Vec<_> = (0..nstates).map(|_| Nan::nan()).collect();
            let mut per_state = vec![Vec::new(); nstates];
            {frame_loop}
                {batch};
                for (o, v) in outs.iter().zip(per_state.iter_mut()) {{
                    o.flat(v);
                }}
            {frame_end}
            let start = Instant::now();
            let mut states = 0u64;
            loop {{
                {frame_loop} {batch}; black_box(&mut outs); states += nstates as u64; {frame_end}
                if states == 0 || start.elapsed().as_secs_f64() >= seconds {{
                    break;
                }}
            }}
            let ns = start.elapsed().as_nanos() as f64 / states.max(1) as f64;
            writeln!(out, \"{name}/lanes {{ns:?}}\").unwrap();
            for values in &per_state {{
                line(&mut out, values);
            }}
        }}",
                columns = columns.join("\n")
            )
        } else {
            String::new()
        };
        write!(
            blocks,
            "    {{
        let width = {width};
        let inputs: Vec<_> = (0..nstates)
            .map(|s| {{
                let x = &numbers[cursor + s * width..cursor + (s + 1) * width];
                let mut k = 0;
                {reads}
                {tuple}
            }})
            .collect();
        cursor += nstates * width;
        let mut lines = String::new();
        let mut values = Vec::new();
        for {tuple} in &inputs {{
            values.clear();
            {frame_loop} {call}.flat(&mut values); {frame_end}
            line(&mut lines, &values);
        }}
        let start = Instant::now();
        let mut calls = 0u64;
        loop {{
            for {tuple} in &inputs {{
                {frame_loop} black_box({timed}); calls += 1; {frame_end}
            }}
            if calls == 0 || start.elapsed().as_secs_f64() >= seconds {{
                break;
            }}
        }}
        let ns = start.elapsed().as_nanos() as f64 / calls.max(1) as f64;
        writeln!(out, \"{name} {{ns:?}}\").unwrap();
        out.push_str(&lines);
        {lanes_block}
    }}
"
        )
        .expect("writing to a String");
    }
    format!(
        "//! Runs the generated module `robot` on states read from standard input;
//! written by `rbdgen verify` (see its harness module for the protocol).
#![allow(unused_mut, unused_variables, clippy::all)]

mod robot;

use std::fmt::Write as _;
use std::hint::black_box;
use std::io::{{Read, Write}};
use std::time::Instant;

type S = {scalar};

/// Flattening any nesting of arrays of the scalar into `f64`s.
trait Flat {{
    fn flat(&self, out: &mut Vec<f64>);
}}

impl Flat for f64 {{
    fn flat(&self, out: &mut Vec<f64>) {{
        out.push(*self);
    }}
}}

impl Flat for f32 {{
    fn flat(&self, out: &mut Vec<f64>) {{
        out.push(f64::from(*self));
    }}
}}

/// A tuple of results, one after the other.
macro_rules! flat_tuple {{
    ($($t:ident $i:tt),+) => {{
        impl<$($t: Flat),+> Flat for ($($t,)+) {{
            fn flat(&self, out: &mut Vec<f64>) {{
                $(self.$i.flat(out);)+
            }}
        }}
    }};
}}
flat_tuple!(A 0, B 1);
flat_tuple!(A 0, B 1, C 2);
flat_tuple!(A 0, B 1, C 2, D 3);
flat_tuple!(A 0, B 1, C 2, D 3, E 4, F 5);
flat_tuple!(A 0, B 1, C 2, D 3, E 4, F 5, G 6);

impl<T: Flat, const N: usize> Flat for [T; N] {{
    fn flat(&self, out: &mut Vec<f64>) {{
        for x in self {{
            x.flat(out);
        }}
    }}
}}

/// A value whose every scalar is NaN: the batch outputs before the batch writes them.
trait Nan {{
    fn nan() -> Self;
}}

impl Nan for f64 {{
    fn nan() -> Self {{
        f64::NAN
    }}
}}

impl Nan for f32 {{
    fn nan() -> Self {{
        f32::NAN
    }}
}}

impl<T: Nan, const N: usize> Nan for [T; N] {{
    fn nan() -> Self {{
        core::array::from_fn(|_| T::nan())
    }}
}}

/// A tuple of NaN results.
macro_rules! nan_tuple {{
    ($($t:ident),+) => {{
        impl<$($t: Nan),+> Nan for ($($t,)+) {{
            fn nan() -> Self {{
                ($($t::nan(),)+)
            }}
        }}
    }};
}}
nan_tuple!(A, B);
nan_tuple!(A, B, C);
nan_tuple!(A, B, C, D);
nan_tuple!(A, B, C, D, E, F);
nan_tuple!(A, B, C, D, E, F, G);

fn arg<const N: usize>(x: &[f64], k: &mut usize) -> [S; N] {{
    let a = core::array::from_fn(|i| x[*k + i] as S);
    *k += N;
    a
}}

fn line(out: &mut String, values: &[f64]) {{
    for v in values {{
        write!(out, \"{{v:?}} \").unwrap();
    }}
    out.push('\\n');
}}

#[allow(unused_assignments)] // the last block's advance of `cursor`
fn main() {{
    let mut text = String::new();
    std::io::stdin().read_to_string(&mut text).expect(\"reading stdin\");
    let numbers: Vec<f64> = text
        .split_ascii_whitespace()
        .map(|t| t.parse().expect(\"a number\"))
        .collect();
    let (nstates, seconds) = (numbers[0] as usize, numbers[1]);
    let mut cursor = 2;
    let mut out = String::new();
{blocks}    std::io::stdout().write_all(out.as_bytes()).expect(\"writing stdout\");
}}
",
        scalar = options.scalar.name()
    )
}
