//! The page frame every dashboard page shares: language, viewport, the one stylesheet
//! (`/assets/dashboard.css`, same origin: the CSP allows no inline style or script), a skip
//! link, the navigation for the signed-in staff member (payments, review queue, subscriptions,
//! webhooks, and the audit log for admins only), an account link and the logout form, which
//! carries the CSRF token like every other form.

use axum::response::Html;
use maud::{DOCTYPE, Markup, html};

use crate::dashboard::auth::Staff;
use crate::store::prelude::StaffRole;

/// A whole page titled `title`, around `main`.
pub fn page(title: &str, staff: Option<&Staff>, main: Markup) -> Html<String> {
    Html(
        html! {
            (DOCTYPE)
            html lang="en" {
                head {
                    meta charset="utf-8";
                    meta name="viewport" content="width=device-width, initial-scale=1";
                    meta name="color-scheme" content="light dark";
                    title { (title) " · Checkout dashboard" }
                    link rel="stylesheet" href="/assets/dashboard.css";
                }
                body {
                    a class="skip" href="#main" { "Skip to content" }
                    header {
                        nav aria-label="Main" {
                            strong { "Checkout dashboard" }
                            @if let Some(staff) = staff {
                                a href="/" { "Overview" }
                                a href="/payments" { "Payments" }
                                a href="/review" { "Review queue" }
                                a href="/subscriptions" { "Subscriptions" }
                                a href="/webhooks" { "Webhooks" }
                                a href="/risk" { "Card testing" }
                                a href="/risk/blocks" { "Block lists" }
                                a href="/links" { "Payment links" }
                                @if staff.can(StaffRole::Admin) {
                                    a href="/audit" { "Audit log" }
                                }
                                a href="/account" { "Account" }
                                span class="who" { (staff.user.email) " (" (staff.user.role.as_str()) ")" }
                                form method="post" action="/logout" class="inline" {
                                    input type="hidden" name="csrf" value=(staff.csrf);
                                    button type="submit" { "Log out" }
                                }
                            }
                        }
                    }
                    main id="main" {
                        h1 { (title) }
                        (main)
                    }
                }
            }
        }
        .into_string(),
    )
}

/// A hidden CSRF field for `staff`'s session.
pub fn csrf_field(staff: &Staff) -> Markup {
    html! { input type="hidden" name="csrf" value=(staff.csrf); }
}
