//! `GET /account`: the signed-in staff member's account and its two-factor sign-in. Off: a
//! button to set it up. Set-up started: the secret as an inline SVG QR code of its
//! `otpauth://` URL and as base32 text, and a field for the first code. On: the recovery codes
//! left and a form to turn it off (password or current code). `POST /account/two-factor/start`,
//! `…/confirm` (answers with the recovery codes, shown this once) and `…/disable` act; all
//! take the CSRF token. Under `DASHBOARD_REQUIRE_2FA` this is the only page an admin without
//! two-factor sign-in reaches.

use axum::Form;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use maud::{Markup, html};
use secrecy::{ExposeSecret as _, SecretString};
use serde::Deserialize;

use super::layout::{csrf_field, page};
use super::qr;
use crate::dashboard::auth::required::must_enrol;
use crate::dashboard::auth::{Enrolling, Staff, enrolment, totp};
use crate::dashboard::client::Client;
use crate::dashboard::error::DashboardError;
use crate::dashboard::redirect::see_other;
use crate::dashboard::state::DashboardState;

/// A two-factor form's fields.
#[derive(Deserialize)]
pub struct TwoFactorForm {
    #[serde(default)]
    csrf: String,
    /// The first code (confirm).
    #[serde(default)]
    code: String,
    /// The password or a current code (disable).
    #[serde(default)]
    proof: String,
}

/// `GET /account`.
pub async fn show(
    State(state): State<DashboardState>,
    Enrolling(staff): Enrolling,
) -> Result<Html<String>, DashboardError> {
    let body = two_factor_section(&state, &staff).await?;
    Ok(page("Account", Some(&staff), body))
}

/// `POST /account/two-factor/start`.
pub async fn start(
    State(state): State<DashboardState>,
    Enrolling(staff): Enrolling,
    Form(form): Form<TwoFactorForm>,
) -> Result<Response, DashboardError> {
    staff.check_csrf(&form.csrf)?;
    enrolment::offer(&state, &staff).await?;
    Ok(see_other("/account"))
}

/// `POST /account/two-factor/confirm`.
pub async fn confirm(
    State(state): State<DashboardState>,
    Enrolling(staff): Enrolling,
    Client(client): Client,
    Form(form): Form<TwoFactorForm>,
) -> Result<Response, DashboardError> {
    staff.check_csrf(&form.csrf)?;
    match enrolment::confirm(&state, &staff, &form.code, client).await {
        Ok(codes) => {
            Ok(page("Recovery codes", Some(&staff), recovery_codes(&codes)).into_response())
        }
        Err(error) => again_with(&state, &staff, error).await,
    }
}

/// `POST /account/two-factor/disable`.
pub async fn disable(
    State(state): State<DashboardState>,
    Enrolling(staff): Enrolling,
    Client(client): Client,
    Form(form): Form<TwoFactorForm>,
) -> Result<Response, DashboardError> {
    staff.check_csrf(&form.csrf)?;
    match enrolment::turn_off(&state, &staff, SecretString::from(form.proof), client).await {
        Ok(()) => Ok(see_other("/account")),
        Err(error) => again_with(&state, &staff, error).await,
    }
}

/// The account page again (400) with a bad field's message above it; any other error as is.
async fn again_with(
    state: &DashboardState,
    staff: &Staff,
    error: DashboardError,
) -> Result<Response, DashboardError> {
    let DashboardError::BadRequest { field, message } = error else {
        return Err(error);
    };
    let body = html! {
        p role="alert" class="error" { (field) ": " (message) }
        (two_factor_section(state, staff).await?)
    };
    Ok((StatusCode::BAD_REQUEST, page("Account", Some(staff), body)).into_response())
}

async fn two_factor_section(
    state: &DashboardState,
    staff: &Staff,
) -> Result<Markup, DashboardError> {
    let user = &staff.user;
    let status = if let Some(pending) = &user.totp_pending_secret {
        set_up(staff, pending)?
    } else if user.has_two_factor() {
        let left = state.app.store.recovery_codes_left(&user.id).await?;
        turned_on(staff, left)
    } else {
        turned_off(staff)
    };
    Ok(html! {
        dl {
            dt { "E-mail" } dd { (user.email) }
            dt { "Role" } dd { (user.role.as_str()) }
        }
        section aria-labelledby="two-factor" {
            h2 id="two-factor" { "Two-factor sign-in" }
            @if must_enrol(state, user) {
                p role="alert" class="error" {
                    "Your role requires two-factor sign-in: set it up to reach the rest of the dashboard."
                }
            }
            (status)
        }
    })
}

fn turned_off(staff: &Staff) -> Markup {
    html! {
        p { "Off. With it on, a login asks for a code from an authenticator app after the password." }
        form method="post" action="/account/two-factor/start" {
            (csrf_field(staff))
            button type="submit" { "Set up two-factor sign-in" }
        }
    }
}

fn set_up(staff: &Staff, secret: &SecretString) -> Result<Markup, DashboardError> {
    let url = totp::otpauth_url(secret, &staff.user.email)?;
    let code = qr::svg(
        &url,
        "QR code of the two-factor secret for an authenticator app",
    )?;
    Ok(html! {
        ol {
            li { "Scan this code with an authenticator app (or type the key below into it)." }
            li { "Type the 6-digit code the app shows." }
        }
        figure { (code) }
        p {
            "Key for manual entry (time-based, 6 digits, 30 seconds): "
            code class="secret" { (grouped(secret.expose_secret())) }
        }
        form method="post" action="/account/two-factor/confirm" {
            (csrf_field(staff))
            p {
                label for="code" { "Code from the app" }
                input id="code" name="code" type="text" inputmode="numeric"
                    autocomplete="one-time-code" required maxlength="8";
            }
            button type="submit" { "Turn on two-factor sign-in" }
        }
        form method="post" action="/account/two-factor/start" {
            (csrf_field(staff))
            button type="submit" { "Show a new key" }
        }
    })
}

fn turned_on(staff: &Staff, recovery_left: u32) -> Markup {
    html! {
        p { "On: a login asks for a code from your authenticator app after the password." }
        p { (recovery_left) " unused recovery codes left." }
        form method="post" action="/account/two-factor/disable" {
            (csrf_field(staff))
            p {
                label for="proof" { "Your password or a current code" }
                input id="proof" name="proof" type="password" autocomplete="current-password" required;
            }
            button type="submit" class="danger" { "Turn off two-factor sign-in" }
        }
    }
}

fn recovery_codes(codes: &[SecretString]) -> Markup {
    html! {
        p { "Two-factor sign-in is on." }
        p role="alert" {
            "Keep these recovery codes somewhere safe: each opens one login without your phone, "
            "and they are shown only now."
        }
        ul class="recovery-codes" {
            @for code in codes { li { code { (code.expose_secret()) } } }
        }
        p { a href="/" { "Continue to the dashboard" } }
    }
}

/// `ABCD EFGH …`: the key in groups of four, easier to copy by eye.
fn grouped(key: &str) -> String {
    key.as_bytes()
        .chunks(4)
        .filter_map(|chunk| std::str::from_utf8(chunk).ok())
        .collect::<Vec<_>>()
        .join(" ")
}
