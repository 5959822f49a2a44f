//! `GET /frame/challenge?origin=…`: the page the loader's 3-D Secure dialog frames on the
//! shop's page, on this server's origin, and the bank's page inside it. A shop then allows
//! frames from its checkout-server alone (CSP `frame-src`), as for the card form, whichever
//! bank a card belongs to.
//!
//! The bank's address and the frame's title come in the address's fragment
//! (`#url=…&title=…`), which no server and no `Referer` sees; the script takes them, drops the
//! fragment from the address and frames the bank's page (http or https only). It tells the
//! shop's page, at the origin the address names, each time a page of the bank has loaded
//! (`bank_loaded`: the loader shows the dialog unless the return follows at once), and passes on
//! the return page's word (`three_ds_returned`), taken only from the bank's frame at this
//! origin. Neither message carries anything else.
//!
//! The guards are the card frame's: only for a frame (`Sec-Fetch-Dest`), only for an origin of
//! `ALLOWED_ORIGINS`, framed only by that origin (`frame-ancestors`).

use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_SECURITY_POLICY, CONTENT_TYPE, VARY};
use axum::http::{HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde::Deserialize;
use sha2::{Digest as _, Sha256};

use super::options::{allowed, for_a_frame};
use super::refusal::FrameRefusal;
use super::skeleton::escape;
use crate::web::AppState;

/// The page's one script: see the module's header.
const SCRIPT: &str = r#"(function () {
  var origin = document.documentElement.getAttribute("data-origin");
  var asked = new URLSearchParams(location.hash.slice(1));
  history.replaceState(null, "", location.pathname + location.search);
  var url = asked.get("url") || "";
  if (window.parent === window || !/^https?:\/\//i.test(url)) return;
  var tell = function (type) {
    window.parent.postMessage({ cc: "card-checkout", type: type }, origin);
  };
  var bank = document.createElement("iframe");
  bank.title = asked.get("title") || "Your bank's page";
  bank.addEventListener("load", function () { tell("bank_loaded"); });
  addEventListener("message", function (event) {
    var data = event.data;
    if (event.source !== bank.contentWindow || event.origin !== location.origin) return;
    if (data && data.cc === "card-checkout" && data.type === "three_ds_returned") {
      tell("three_ds_returned");
    }
  });
  bank.src = url;
  document.body.append(bank);
})();"#;

/// What the loader puts in the address.
#[derive(Debug, Deserialize)]
pub struct ChallengeRequest {
    /// The shop page's origin.
    origin: String,
}

/// The host page for the shop page at `origin`.
pub async fn serve(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<ChallengeRequest>, QueryRejection>,
) -> Result<Response, FrameRefusal> {
    if !for_a_frame(&headers) {
        return Err(FrameRefusal::NotFramed);
    }
    let Query(request) = query.map_err(|_| FrameRefusal::Unreadable)?;
    allowed(&state, &request.origin)?;
    let html = format!(
        "<!doctype html><html lang=\"en\" data-origin=\"{}\"><head><meta charset=\"utf-8\">\
         <meta name=\"referrer\" content=\"no-referrer\"><title>3-D Secure</title>\
         <style>html,body{{margin:0;height:100%;overflow:hidden}}\
         iframe{{display:block;width:100%;height:100%;border:0;background:#fff}}</style>\
         </head><body><script>{SCRIPT}</script></body></html>",
        escape(&request.origin)
    );
    let policy = HeaderValue::from_str(&policy(&request.origin))
        .map_err(|_| FrameRefusal::Invalid("origin"))?;
    let mut response = ([(CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response();
    let headers = response.headers_mut();
    headers.insert(CONTENT_SECURITY_POLICY, policy);
    headers.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    headers.insert(VARY, HeaderValue::from_static("Sec-Fetch-Dest"));
    Ok(response)
}

/// Its own script and styles only; any bank's page in its frame; framed by `origin` only.
fn policy(origin: &str) -> String {
    let hash = BASE64.encode(Sha256::digest(SCRIPT.as_bytes()));
    format!(
        "default-src 'none'; script-src 'sha256-{hash}'; style-src 'unsafe-inline'; \
         frame-src http: https:; form-action 'none'; frame-ancestors {origin}; \
         base-uri 'none'; object-src 'none'"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn framed_only_by_the_shop_and_running_only_its_script() {
        let policy = policy("https://shop.example");
        assert!(
            policy.contains("frame-ancestors https://shop.example;"),
            "{policy}"
        );
        let hash = BASE64.encode(Sha256::digest(SCRIPT.as_bytes()));
        assert!(policy.contains(&format!("script-src 'sha256-{hash}';")));
        assert!(policy.contains("frame-src http: https:;"), "{policy}");
    }
}
