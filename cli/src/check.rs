//! The error measure of the project's conformance checks.

/// The spec's error measure for one quantity in one state:
/// `max |ours - reference| / max(1, max |reference|)` (a match with Pinocchio
/// is a value of at most 1e-8). Infinite when the lengths differ or a value of
/// `ours` is not finite.
///
/// `ours`, `reference`: the quantity flattened row-major, `[n]` each.
pub fn relative_error(ours: &[f64], reference: &[f64]) -> f64 {
    if ours.len() != reference.len() || ours.iter().any(|x| !x.is_finite()) {
        return f64::INFINITY;
    }
    let scale = reference.iter().fold(1.0f64, |m, x| m.max(x.abs()));
    let diff = ours
        .iter()
        .zip(reference)
        .fold(0.0f64, |m, (a, b)| m.max((a - b).abs()));
    diff / scale
}

#[cfg(test)]
mod tests {
    use super::relative_error;

    #[test]
    fn relative_error_follows_the_spec_rule() {
        assert_eq!(relative_error(&[1.0, 2.0], &[1.0, 2.5]), 0.5 / 2.5);
        // Below 1 in magnitude the error is absolute.
        assert_eq!(relative_error(&[0.001], &[0.0]), 0.001);
        assert_eq!(relative_error(&[f64::NAN], &[0.0]), f64::INFINITY);
        assert_eq!(relative_error(&[0.0], &[0.0, 0.0]), f64::INFINITY);
        assert_eq!(relative_error(&[], &[]), 0.0);
    }
}
