//! Where the checkout view is: loading the session, showing the form, or done; the form, the
//! pay call and 3-D Secure move it on.

use super::form_state::FormState;
use crate::contract::CheckoutView;

/// Where the checkout is.
#[derive(Clone)]
pub enum Stage {
    /// Fetching the session.
    Loading,
    /// The session could not be fetched.
    LoadFailed,
    /// Showing the form.
    Form(Box<(CheckoutView, FormState)>),
    /// Paid or waiting for the outcome: the result panel shows.
    Done,
}
