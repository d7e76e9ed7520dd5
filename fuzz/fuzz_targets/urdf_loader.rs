//! Fuzz target of the URDF loader: whatever the bytes, `Model::from_urdf_str`
//! returns a model or an error, never panics, never overflows the stack; and
//! the algorithms run on every model it accepts without panicking.

#![no_main]

use libfuzzer_sys::fuzz_target;
use rbdgen_runtime::{aba, crba, rnea, Data, Model};

fuzz_target!(|bytes: &[u8]| {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    for floating_base in [false, true] {
        let Ok(model) = Model::from_urdf_str(text, floating_base) else {
            continue;
        };
        // Same answer from the strict loader, up to the triangle inequality.
        if let Ok(strict) = Model::from_urdf_str_strict(text, floating_base) {
            assert_eq!(strict, model);
        }
        let _ = model.physical_warnings();
        // Large models are accepted, but running the algorithms on them would
        // only slow the search down.
        if model.njoints() > 64 {
            continue;
        }
        let q = model.neutral();
        let v = vec![0.5; model.nv];
        let mut data = Data::new(&model);
        let tau = rnea(&model, &mut data, &q, &v, &v).unwrap().to_vec();
        crba(&model, &mut data, &q).unwrap();
        aba(&model, &mut data, &q, &v, &tau).unwrap();
    }
});
