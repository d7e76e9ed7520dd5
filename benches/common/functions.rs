//! The names of the functions of the generator's table
//! (`rbdgen::symbolic::Function::ALL`), for macros that need them as
//! identifiers: the benches call each generated function by name. The lists
//! are the table's own list (`rbdgen::symbolic::for_each_function!`), so a
//! new function is in them with its row.

/// `$m!(ARGS, [NAME, ...])` (or `$m! { .. }` for `braces`) with the names
/// of the rows of block `core`, `mpc` or both (`every`) of the list that
/// [`rbdgen::symbolic::for_each_function!`] passes.
#[allow(unused_macros)]
macro_rules! bench_names {
    ($which:ident, $m:ident ! ($($args:tt)*)
     core: [$($(#[$ca:meta])* $cv:ident { name: $core:ident, $($cc:tt)* },)*]
     mpc: [$($(#[$ma:meta])* $mv:ident { name: $mpc:ident, $($mc:tt)* },)*]) => {
        bench_names! { @$which $m ($($args)*) [$($core),*] [$($mpc),*] }
    };
    (@every $m:ident ($($args:tt)*) [$($core:ident),*] [$($mpc:ident),*]) => {
        $m!($($args)*, [$($core,)* $($mpc,)*])
    };
    (@core $m:ident ($($args:tt)*) [$($core:ident),*] [$($mpc:ident),*]) => {
        $m! { $($args)*, [$($core,)*] }
    };
    (@mpc $m:ident ($($args:tt)*) [$($core:ident),*] [$($mpc:ident),*]) => {
        $m!($($args)*, [$($mpc,)*])
    };
}

/// Calls `$m!(ARGS, [NAME, ...])` with every function of the table, in
/// table order: [`core_functions!`], then [`mpc_functions!`].
#[allow(unused_macros)]
macro_rules! every_function {
    ($m:ident ! ($($args:tt)*)) => {
        rbdgen::symbolic::for_each_function! { bench_names!(every, $m!($($args)*)) }
    };
}

/// Calls `$m! { ARGS, [NAME, ...] }` (braces: it also makes items) with the functions that
/// benches/dynamics.rs benches on every robot (Go2+Z1, Z1, G1): the table's
/// core functions, without the MPC block of [`mpc_functions!`], whose
/// generated code takes minutes to compile for the floating-base robots.
#[allow(unused_macros)]
macro_rules! core_functions {
    ($m:ident ! ($($args:tt)*)) => {
        rbdgen::symbolic::for_each_function! { bench_names!(core, $m!($($args)*)) }
    };
}

/// Calls `$m!(ARGS, [NAME, ...])` with the MPC derivatives of the table (the
/// rest of [`every_function!`]): benched on the stance robots of
/// benches/stance.rs (`scripts/bench go2_z1_stance g1_stance`).
#[allow(unused_macros)]
macro_rules! mpc_functions {
    ($m:ident ! ($($args:tt)*)) => {
        rbdgen::symbolic::for_each_function! { bench_names!(mpc, $m!($($args)*)) }
    };
}
