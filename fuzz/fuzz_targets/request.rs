//! The engine's request decoder (`mcts_playground::request::decode_request`): any bytes are a
//! checked worker request or a `RequestError`, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = mcts_playground::request::decode_request(data);
});
