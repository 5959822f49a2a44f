//! `GET /login` (the form), `POST /login` (a session cookie and 303 to the payments, or, for
//! an account with two-factor sign-in, a login-challenge cookie and 303 to the code page; or
//! the form again with a message that never says which part was wrong), `POST /logout` (the
//! session deleted server-side and the cookie cleared).

use axum::Form;
use axum::extract::State;
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use maud::html;
use secrecy::SecretString;
use serde::Deserialize;

use super::layout::page;
use crate::dashboard::audit::{Actor, record};
use crate::dashboard::auth::Enrolling;
use crate::dashboard::auth::challenge;
use crate::dashboard::auth::login::{REFUSED, authenticate};
use crate::dashboard::auth::session::{self, cleared_cookie};
use crate::dashboard::client::Client;
use crate::dashboard::error::DashboardError;
use crate::dashboard::redirect::see_other;
use crate::dashboard::state::DashboardState;

/// The login form's fields.
#[derive(Deserialize)]
pub struct LoginForm {
    #[serde(default)]
    email: String,
    #[serde(default)]
    password: String,
}

/// The logout form's field.
#[derive(Deserialize)]
pub struct LogoutForm {
    #[serde(default)]
    csrf: String,
}

/// `GET /login`.
pub async fn show() -> Response {
    form(StatusCode::OK, None, "")
}

/// `POST /login`.
pub async fn submit(
    State(state): State<DashboardState>,
    Client(client): Client,
    Form(login): Form<LoginForm>,
) -> Response {
    let password = SecretString::from(login.password);
    match authenticate(&state, &login.email, password, client).await {
        Ok(user) if user.has_two_factor() => match challenge::open(&state, &user).await {
            Ok(cookie) => see_other_with(&[cookie], "/login/code"),
            Err(error) => error.into_response(),
        },
        Ok(user) => match session::start(&state, &user).await {
            Ok(cookie) => see_other_with(&[cookie], "/"),
            Err(error) => error.into_response(),
        },
        Err(DashboardError::Forbidden(_)) => {
            form(StatusCode::FORBIDDEN, Some(REFUSED), &login.email)
        }
        Err(error @ DashboardError::TooMany(_)) => error.into_response(),
        Err(error) => error.into_response(),
    }
}

/// `POST /logout`.
pub async fn logout(
    State(state): State<DashboardState>,
    Enrolling(staff): Enrolling,
    Client(client): Client,
    Form(form): Form<LogoutForm>,
) -> Result<Response, DashboardError> {
    staff.check_csrf(&form.csrf)?;
    staff.end(&state).await?;
    let actor = Actor::staff(&staff, client);
    record(&state, &actor, "logout", None, "ok", None).await;
    let cleared = HeaderValue::from_str(&cleared_cookie(state.secure))
        .map_err(|_| DashboardError::Internal("cookie header".into()))?;
    Ok(see_other_with(&[cleared], "/login"))
}

/// A 303 to `to` setting `cookies`.
pub fn see_other_with(cookies: &[HeaderValue], to: &str) -> Response {
    let mut response = see_other(to);
    for cookie in cookies {
        response.headers_mut().append(SET_COOKIE, cookie.clone());
    }
    response
}

fn form(status: StatusCode, message: Option<&str>, email: &str) -> Response {
    let body = page(
        "Log in",
        None,
        html! {
            @if let Some(message) = message {
                p role="alert" class="error" { (message) }
            }
            form method="post" action="/login" {
                p {
                    label for="email" { "E-mail" }
                    input id="email" name="email" type="email" autocomplete="username" required value=(email);
                }
                p {
                    label for="password" { "Password" }
                    input id="password" name="password" type="password" autocomplete="current-password" required;
                }
                button type="submit" { "Log in" }
            }
        },
    );
    (status, body).into_response()
}
