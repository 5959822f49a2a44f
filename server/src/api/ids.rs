//! Ids in paths: an id the server cannot have given ([`plausible_id`]) is answered 404 before
//! it reaches the store or an idempotency scope.

pub use crate::store::model::plausible_id;
use crate::web::ApiFailure;

/// `Ok` for a plausible `id`, else 404 naming `what`.
pub fn known(id: &str, what: &'static str) -> Result<(), ApiFailure> {
    if plausible_id(id) {
        Ok(())
    } else {
        Err(ApiFailure::NotFound(what))
    }
}
