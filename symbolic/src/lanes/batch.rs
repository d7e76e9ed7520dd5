// The batch error of a generated `lanes` module, after the `Lanes` impls of
// tuples (see support.rs).

/// A batch argument whose length is not the number of results asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LengthMismatch {
    /// The argument's name.
    pub argument: &'static str,
    /// Its length.
    pub len: usize,
    /// `out.len()`.
    pub expected: usize,
}

impl core::fmt::Display for LengthMismatch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "`{}` holds {} state{}, `out` {}",
            self.argument,
            self.len,
            if self.len == 1 { "" } else { "s" },
            self.expected
        )
    }
}

// `core::error::Error`: `?` in a function returning
// `Result<_, Box<dyn std::error::Error>>`, with or without `std`.
impl core::error::Error for LengthMismatch {}
