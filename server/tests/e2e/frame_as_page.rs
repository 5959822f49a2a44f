//! Scenario: the card form's document cannot be shown as a page of its own. A hostile page on
//! an outsider's origin, without a referrer (so its post says `Origin: null`), posts the
//! loader's fields (an allowed shop's origin, a real session and its client secret) to
//! `{server}/frame/` with `target=_top`, hoping to show the shop's real card form, name and
//! amount on checkout-server's own address, where `frame-ancestors` protects nothing. Chromium
//! ends on checkout-server's short refusal: no card input in the page or any frame, no
//! `checkout-config` block (the options the form would start from), and the server logged why.
//! The frame's cacheable shell (`GET /frame/shell`, which today's loader frames) opened as the
//! whole window is refused the same way. The control: the same page, served by the allowed
//! shop, posting the same fields into a frame of its own, gets the form.

use std::future::Future;
use std::pin::Pin;

use serde_json::Value;

use crate::support::Page;
use crate::support::every_engine::every_engine;
use crate::support::form::ids;
use crate::support::framing_pages::poster_page;
use crate::support::partner::{EmulatorAt, PartnerRig};
use crate::support::site::{StaticSite, dist};

/// What checkout-server answers a request for the document that is not for a frame.
const REFUSAL: &str = "This payment form opens only inside the shop's checkout page";

/// `site`'s `/poster.html` posting the loader's fields for `session` and `secret`, naming
/// `origin`, to `server`'s `/frame/`, into `target` (`_top` or `frame`).
fn poster_url(
    site: &StaticSite,
    server: &str,
    origin: &str,
    (session, secret): (&str, &str),
    target: &str,
) -> String {
    let mut url = reqwest::Url::parse(&format!("{}/poster.html", site.base)).expect("URL");
    url.query_pairs_mut()
        .append_pair("server", server)
        .append_pair("origin", origin)
        .append_pair("session", session)
        .append_pair("secret", secret)
        .append_pair("target", target);
    url.into()
}

/// How many elements match `css` in the current document (and its open shadow roots) and, one
/// by one, in every frame below it. Leaves the context where it found it.
fn count_everywhere<'a>(
    page: &'a Page,
    css: &'a str,
) -> Pin<Box<dyn Future<Output = usize> + Send + 'a>> {
    Box::pin(async move {
        let script = r#"
            const roots = [document];
            let count = 0;
            while (roots.length) {
              const root = roots.shift();
              count += root.querySelectorAll(arguments[0]).length;
              for (const el of root.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
            }
            return [count, window.frames.length];
        "#;
        let counted = page
            .client
            .execute(script, vec![Value::from(css)])
            .await
            .expect("count in the document");
        let number = |at: usize| {
            counted[at]
                .as_u64()
                .and_then(|n| usize::try_from(n).ok())
                .expect("a count")
        };
        let mut total = number(0);
        for index in 0..number(1) {
            let index = u16::try_from(index).expect("a frame index");
            page.client.enter_frame(index).await.expect("into a frame");
            total += count_everywhere(page, css).await;
            page.client
                .enter_parent_frame()
                .await
                .expect("back from the frame");
        }
        total
    })
}

every_engine!(
    a_hostile_page_cannot_open_the_card_form_as_a_page_of_its_own,
    "frame-as-page"
);

async fn a_hostile_page_cannot_open_the_card_form_as_a_page_of_its_own(page: Page) {
    let rig = PartnerRig::start(EmulatorAt::InProcess, vec![]);
    let outsider = StaticSite::start(&dist(), vec![("/poster.html", poster_page())]);
    let server = rig.server.base.clone();
    let shop = rig.partner.base.clone();

    let (session, secret, _) = rig.session(1200, "EUR", "opened-as-page").await;
    let hostile = poster_url(&outsider, &server, &shop, (&session, &secret), "_top");
    page.goto(&hostile).await;
    let shown = page
        .until("the post to end on checkout-server", || async {
            let url = page.url().await;
            if !url.starts_with(&format!("{server}/frame/")) {
                return None;
            }
            let text = page.text("body").await;
            text.contains(REFUSAL).then_some(text)
        })
        .await;
    page.screenshot("refused").await;
    assert!(!shown.contains("12.00"), "the shop's amount shows: {shown}");
    let _ = page.client.enter_parent_frame().await;
    assert_eq!(
        count_everywhere(&page, ids::NUMBER).await,
        0,
        "no card input in the page or any frame"
    );
    assert_eq!(count_everywhere(&page, "input").await, 0, "no input at all");
    assert_eq!(
        count_everywhere(&page, "#checkout-config").await,
        0,
        "no checkout-config block"
    );
    let source = page.client.source().await.expect("the page's source");
    assert!(
        !source.contains("checkout-config") && !source.contains(&secret),
        "the options are not in the page: {source}"
    );
    let log = rig.server.log_text();
    assert!(
        log.contains("frame document refused") && log.contains(REFUSAL),
        "checkout-server refused the request, not only the page's script:\n{log}"
    );

    // The cacheable shell the loader frames (GET /frame/shell), opened as the whole window
    // (a link, a typed address): the same refusal, no input.
    let mut shell = reqwest::Url::parse(&format!("{server}/frame/shell")).expect("URL");
    shell
        .query_pairs_mut()
        .append_pair("v", "")
        .append_pair("origin", &shop)
        .append_pair("locale", "en");
    page.goto(shell.as_str()).await;
    let shown = page.text("body").await;
    assert!(shown.contains(REFUSAL), "the shell as a page: {shown}");
    assert_eq!(
        count_everywhere(&page, "input").await,
        0,
        "no input in the shell"
    );
    page.screenshot("shell-refused").await;

    // The control: the same fields, posted into a frame by a page on the shop's origin.
    let (session, secret, _) = rig.session(1200, "EUR", "posted-into-frame").await;
    let framed = poster_url(&rig.partner, &server, &shop, (&session, &secret), "frame");
    page.goto(&framed).await;
    page.find_ready(ids::NUMBER).await;
    // The frame's script formats the amount, maybe after the input is there.
    page.wait_text("#cc-amount", "€12.00").await;
    assert_eq!(page.count("#checkout-config").await, 1);
    assert!(
        page.url().await.starts_with(&format!("{shop}/poster.html")),
        "the allowed page stays, the form in its frame"
    );
    page.screenshot("control-in-frame").await;
}
