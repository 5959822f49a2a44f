//! Solving the proof of work checkout-server asks for while a card-testing alert is open: the
//! hashing is the browser's (WebCrypto, `solveProof` in `js/intl.js`), so no hash function
//! ships in the wasm.

use crate::contract::{ProofChallenge, ProofOfWork};
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(module = "/js/intl.js")]
extern "C" {
    #[wasm_bindgen(js_name = solveProof)]
    fn solve_proof(salt: &str, challenge: &str, max: f64) -> js_sys::Promise;
}

/// The answer to `challenge`, or `None` when the browser found none.
pub async fn solve(challenge: &ProofChallenge) -> Option<ProofOfWork> {
    let promise = solve_proof(
        &challenge.salt,
        &challenge.challenge,
        challenge.maxnumber as f64,
    );
    let number = JsFuture::from(promise).await.ok()?.as_f64()?;
    (number >= 0.0).then(|| ProofOfWork {
        salt: challenge.salt.clone(),
        number: number as u64,
        signature: challenge.signature.clone(),
    })
}
