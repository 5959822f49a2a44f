//! Scenario: only the shop's own origin may frame the card form and talk to it, enforced by
//! the browser. The partner's page (in `ALLOWED_ORIGINS`) embeds the form through
//! `/checkout.js`:
//! - framed by a page on its own origin, the form loads (the control); framed by a page on an
//!   outsider's origin, Chromium refuses to show the card frame (`frame-ancestors`), and the
//!   element reports `frame_unavailable` within 2 s of the frame's load;
//! - embedded by the outsider's own page (its origin not allowed: checkout-server answers
//!   403), the element reports `frame_unavailable` within 2 s of the frame's load, the shopper
//!   reads "payment is not available here" in their language in place of the frame, and the
//!   developer's text naming the origin is in the event's detail and on the console;
//! - the frame's title and labels are in the page's language, and the partner's page changes
//!   the form's language with `setLocale` (a message to the frame);
//!   an outsider's ad frame beside the form posts the same messages to it without effect.

use std::time::Duration;

use serde_json::Value;

use crate::support::browser::console_log;
use crate::support::engine::Engine;
use crate::support::every_engine::every_engine;
use crate::support::framing_pages::{framed_page, meddler_page, outer_page};
use crate::support::partner::{EmulatorAt, PartnerRig};
use crate::support::site::{StaticSite, dist};
use crate::support::{Page, run};

const NUMBER_LABEL: &str = "label[for=cc-number]";
/// The longest a refused frame may take, from its load event, to be reported.
const REPORTED_WITHIN_MS: i64 = 2000;

/// `site`'s page framing `src`.
fn outer_url(site: &StaticSite, src: &str) -> String {
    let mut url = reqwest::Url::parse(&format!("{}/outer.html", site.base)).expect("URL");
    url.query_pairs_mut().append_pair("src", src);
    url.into()
}

/// A site on an origin that is not in `ALLOWED_ORIGINS`.
fn outsider() -> StaticSite {
    StaticSite::start(
        &dist(),
        vec![
            ("/outer.html", outer_page()),
            ("/meddler.html", meddler_page()),
            ("/framed.html", framed_page()),
        ],
    )
}

every_engine!(
    a_page_outside_the_allowed_origins_cannot_frame_the_form,
    "frame-ancestors"
);

async fn a_page_outside_the_allowed_origins_cannot_frame_the_form(page: Page) {
    let rig = PartnerRig::start(EmulatorAt::InProcess, vec![]);
    let outsider = outsider();

    let (session, secret, _) = rig.session(1200, "EUR", "framed-by-self").await;
    page.goto(&outer_url(&rig.partner, &rig.framed_url(&session, &secret)))
        .await;
    page.find("#relayed li[data-event=ready]").await;

    let (session, secret, _) = rig.session(1200, "EUR", "framed-by-outsider").await;
    page.goto(&outer_url(&outsider, &rig.framed_url(&session, &secret)))
        .await;
    let relayed = page
        .until_for(
            "the element's error about its frame",
            Duration::from_secs(10),
            || async {
                let error = page.try_find("#relayed li[data-event=error]").await?;
                error.text().await.ok()
            },
        )
        .await;
    page.screenshot("refused").await;
    let detail = error_detail(&relayed);
    assert_eq!(detail["code"], "frame_unavailable", "{relayed}");
    assert_eq!(detail["message"], "Payment is not available here.");
    assert_eq!(detail["origin"].as_str(), Some(rig.partner.base.as_str()));
    let after_load = after_load(&page, "#relayed li[data-event=error]").await;
    eprintln!("[frame-ancestors] frame_unavailable {after_load} ms after the frame's load");
    assert!(
        (0..=REPORTED_WITHIN_MS).contains(&after_load),
        "reported {after_load} ms after the frame's load"
    );
    assert_eq!(
        page.count("#relayed li[data-event=ready]").await,
        0,
        "the form never became ready inside the outsider's page"
    );
    let log = rig.server.log_text();
    assert!(
        !log.contains("frame document refused"),
        "the server accepted the allowed shop's request; the browser refused the framing:\n{log}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn messages_from_another_origin_do_not_reach_the_form() {
    run("frame-messages", |page: Page| async move {
        let rig = PartnerRig::start(EmulatorAt::InProcess, vec![]);
        let (session, secret, _) = rig.session(1200, "EUR", "set-locale").await;
        page.goto(&format!("{}&locale=de", rig.framed_url(&session, &secret)))
            .await;
        page.find("#events li[data-event=ready]").await;
        assert_eq!(page.text(NUMBER_LABEL).await, "Kartennummer");
        let title = page
            .eval("return document.querySelector('card-checkout').shadowRoot.querySelector('iframe').title;")
            .await;
        assert_eq!(title, "Kartenzahlung", "the frame's title is in the shopper's language");
        page.eval("document.querySelector('card-checkout').setLocale('en');")
            .await;
        page.wait_text(NUMBER_LABEL, "Card number").await;

        let outsider = outsider();
        let (session, secret, _) = rig.session(1200, "EUR", "meddled").await;
        page.goto(&format!(
            "{}/direct.html?session={session}&secret={secret}&server={}&meddler={}/meddler.html",
            rig.partner.base, rig.server.base, outsider.base
        ))
        .await;
        page.find("#events li[data-event=ready]").await;
        page.until("40 messages from the outsider's frame", || async {
            let sent: u32 = page.text("#meddled").await.parse().ok()?;
            (sent >= 40).then_some(())
        })
        .await;
        assert_eq!(page.text(NUMBER_LABEL).await, "Card number");
        page.screenshot("outsider-ignored").await;
    })
    .await;
}

every_engine!(
    an_origin_outside_the_allowed_ones_is_told_at_once_and_plainly,
    "origin-not-allowed"
);

async fn an_origin_outside_the_allowed_ones_is_told_at_once_and_plainly(page: Page) {
    let rig = PartnerRig::start(EmulatorAt::InProcess, vec![]);
    let outsider = outsider();
    let (session, secret, _) = rig.session(1200, "EUR", "not-allowed").await;
    page.goto(&format!(
        "{}/framed.html?session={session}&secret={secret}&server={}&locale=de",
        outsider.base, rig.server.base
    ))
    .await;
    let reported = page
        .until_for(
            "the element's error about its frame",
            Duration::from_secs(10),
            || async {
                let error = page.try_find("#events li[data-event=error]").await?;
                error.text().await.ok()
            },
        )
        .await;
    page.screenshot("told").await;
    let after_load = after_load(&page, "#events li[data-event=error]").await;
    eprintln!("[origin-not-allowed] frame_unavailable {after_load} ms after the frame's load");
    assert!(
        (0..=REPORTED_WITHIN_MS).contains(&after_load),
        "reported {after_load} ms after the frame's load"
    );

    // The shopper: a plain sentence in their language where the form would be.
    let shown = page
        .eval(
            "const root = document.querySelector('card-checkout').shadowRoot;
             const notice = root.querySelector('p[role=alert]');
             return { text: notice && notice.textContent, lang: notice && notice.lang,
                      frame: getComputedStyle(root.querySelector('iframe')).display };",
        )
        .await;
    assert_eq!(shown["text"], "Die Zahlung ist hier nicht verfügbar.");
    assert_eq!(shown["lang"], "de");
    assert_eq!(shown["frame"], "none", "the refused frame is hidden");

    // The developer: which origin, and what to set, in the detail and on the console.
    let detail = error_detail(&reported);
    assert_eq!(detail["code"], "frame_unavailable");
    assert_eq!(detail["message"], shown["text"]);
    assert_eq!(detail["origin"].as_str(), Some(outsider.base.as_str()));
    assert_eq!(detail["server"].as_str(), Some(rig.server.base.as_str()));
    let developer = detail["developerMessage"].as_str().unwrap_or_default();
    assert!(
        developer.contains(&outsider.base) && developer.contains("ALLOWED_ORIGINS"),
        "{developer}"
    );
    // Only chromedriver hands out the console log.
    if page.engine() == Engine::Chromium {
        let console = console_log(&page.client).await;
        assert!(
            console
                .iter()
                .any(|entry| entry.level == "SEVERE" && entry.message.contains(developer)),
            "the developer's text is on the console: {console:#?}"
        );
    }
    let log = rig.server.log_text();
    assert!(
        log.contains("frame document refused"),
        "checkout-server refused the outsider's origin:\n{log}"
    );
}

/// The detail of a listed event (`error {...}`).
fn error_detail(listed: &str) -> Value {
    let json = listed.split_once(' ').map_or("", |(_, json)| json);
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{listed}: {e}"))
}

/// How many ms after the load of the element's frame the listed event `css` came.
async fn after_load(page: &Page, css: &str) -> i64 {
    let value = page.attr(css, "data-after-load").await.unwrap_or_default();
    value
        .parse()
        .unwrap_or_else(|_| panic!("{css}: data-after-load {value:?}"))
}
