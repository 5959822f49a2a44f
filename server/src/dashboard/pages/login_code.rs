//! `GET /login/code` and `POST /login/code`: the second step of a login for an account with
//! two-factor sign-in, reached only with the login-challenge cookie the right password set
//! (without one, back to `/login`). A right code (or recovery code) ends the challenge and
//! starts the session; a wrong one shows the form again and counts toward the lock-out.

use axum::Form;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use maud::html;
use serde::Deserialize;

use super::layout::page;
use super::login::see_other_with;
use crate::dashboard::auth::challenge;
use crate::dashboard::auth::second_step::{REFUSED, verify_second_factor};
use crate::dashboard::auth::session;
use crate::dashboard::client::Client;
use crate::dashboard::error::DashboardError;
use crate::dashboard::redirect::see_other;
use crate::dashboard::state::DashboardState;

/// The code form's field.
#[derive(Deserialize)]
pub struct CodeForm {
    #[serde(default)]
    code: String,
}

/// `GET /login/code`.
pub async fn show(
    State(state): State<DashboardState>,
    headers: HeaderMap,
) -> Result<Response, DashboardError> {
    Ok(match challenge::current(&state, &headers).await? {
        Some(_) => form(StatusCode::OK, None),
        None => see_other("/login"),
    })
}

/// `POST /login/code`.
pub async fn submit(
    State(state): State<DashboardState>,
    Client(client): Client,
    headers: HeaderMap,
    Form(form_data): Form<CodeForm>,
) -> Result<Response, DashboardError> {
    let Some(challenge) = challenge::current(&state, &headers).await? else {
        return Ok(see_other("/login"));
    };
    match verify_second_factor(&state, &challenge.user, &form_data.code, client).await {
        Ok(()) => {
            let cleared = challenge::close(&state, &challenge).await?;
            let session = session::start(&state, &challenge.user).await?;
            Ok(see_other_with(&[cleared, session], "/"))
        }
        Err(DashboardError::Forbidden(_)) => Ok(form(StatusCode::FORBIDDEN, Some(REFUSED))),
        Err(error) => Err(error),
    }
}

fn form(status: StatusCode, message: Option<&str>) -> Response {
    let body = page(
        "Two-factor sign-in",
        None,
        html! {
            @if let Some(message) = message {
                p role="alert" class="error" { (message) }
            }
            form method="post" action="/login/code" {
                p {
                    label for="code" { "Code from your authenticator app, or a recovery code" }
                    input id="code" name="code" type="text"
                        autocomplete="one-time-code" required autofocus maxlength="32";
                }
                button type="submit" { "Verify" }
            }
            p { a href="/login" { "Start again" } }
        },
    );
    (status, body).into_response()
}
