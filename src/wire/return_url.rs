//! The `return_url` object (gateway-interface.md, "Return URL"); mandatory for 3D Secure.

use serde::{Deserialize, Serialize};

/// Where the gateway posts its webhook and sends the cardholder after 3D Secure.
///
/// gateway-notes.md advises putting the server's own payment id in the path of all three,
/// because the 3DS start response carries no transaction id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReturnUrl {
    /// Receives the webhook notification.
    pub webhook_url: String,
    /// Cardholder lands here after approved authentication.
    pub success_url: String,
    /// Cardholder lands here after rejected authentication.
    pub decline_url: String,
}
