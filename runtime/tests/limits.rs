//! Joint limits read from the URDF against Pinocchio 4.1.0's
//! (`tests/reference/limits/pinocchio_limits.json`): equal where the file has
//! a limit; where it has none, ours are infinite, Pinocchio's the largest
//! double (position and free-flyer), `±1.01` (a continuous joint's
//! `[cos, sin]`) or 0 (an absent velocity or effort).

mod common;

use common::{load_model, root};
use serde_json::Value;

#[test]
fn limits_match_pinocchio_where_the_urdf_has_them() {
    let path = root().join("tests/reference/limits/pinocchio_limits.json");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut finite = 0;
    for entry in json["models"].as_array().unwrap() {
        let urdf = entry["urdf"].as_str().unwrap();
        let model = load_model(urdf, entry["floating_base"].as_bool().unwrap());
        for (ours, key) in [
            (&model.lower_position_limit, "lowerPositionLimit"),
            (&model.upper_position_limit, "upperPositionLimit"),
            (&model.velocity_limit, "velocityLimit"),
            (&model.effort_limit, "effortLimit"),
        ] {
            let theirs = entry[key].as_array().unwrap();
            assert_eq!(ours.len(), theirs.len(), "{urdf} {key}");
            for (k, (x, t)) in ours.iter().zip(theirs).enumerate() {
                match t.as_f64() {
                    Some(t) if x.is_finite() => {
                        assert_eq!(*x, t, "{urdf} {key}[{k}]");
                        finite += 1;
                    }
                    // No limit in the file: Pinocchio's stand-ins for it.
                    Some(t) => assert!(t == 0.0 || t.abs() == 1.01, "{urdf} {key}[{k}] = {t}"),
                    None => assert!(x.is_infinite(), "{urdf} {key}[{k}] = {x}"),
                }
            }
        }
    }
    assert!(finite > 100, "{finite} finite limits compared");
}
