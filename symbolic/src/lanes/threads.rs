// The split of a batch across rayon's threads: the end of a generated
// `lanes` module with `threads` (see support.rs).

use super::lanes::L;

/// About the fewest operations a task of a `NAME_batch_par` function runs (the
/// last task, shortened to whole groups of `L`, can fall a few states short). Waking a
/// pool thread costs microseconds: on two cores, 64 states of Go2+Z1's `aba`
/// (400 000 operations) ran slower in two tasks than in one, 64 of its
/// `rnea_derivatives` (860 000) 1.5 times faster.
pub const TASK_OPS: usize = 400_000;

/// States per task of a `NAME_batch_par` function of `ops` operations per
/// state: `n` split evenly over rayon's threads but into no more tasks than
/// `n * ops / TASK_OPS`, rounded up to whole groups of `L` (at least one
/// group), so that only the last task has a scalar tail. At least `n` (one
/// task, run on the calling thread) when the batch is too small to split.
pub fn par_chunk(n: usize, ops: usize) -> usize {
    let tasks = (n.saturating_mul(ops) / TASK_OPS).clamp(1, rayon::current_num_threads());
    n.div_ceil(tasks).next_multiple_of(L).max(L)
}
