//! The session's view carried by the document itself: checkout-server writes it into the frame
//! document it serves (`<script type="application/json" id="checkout-session">`), so the form
//! can show without a second request for it. Taken once: a later render of the component
//! fetches the view as usual.

use super::json::{self, Json};
use crate::contract::CheckoutView;
use crate::contract::routes::CARRIED_VIEW_ID;

/// The carried view of `session`, removed from the document; `None` when there is none, it
/// cannot be read, or it is another session's.
pub fn take(session: &str) -> Option<CheckoutView> {
    let block = web_sys::window()?
        .document()?
        .get_element_by_id(CARRIED_VIEW_ID)?;
    block.remove();
    let value = js_sys::JSON::parse(&block.text_content()?).ok()?;
    json::checkout_view(&Json(value)).filter(|view| view.id == session)
}
