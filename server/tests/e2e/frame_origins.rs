//! Scenario: only the shop's own origin may frame the card form and talk to it, enforced by
//! the browser. The partner's page (in `ALLOWED_ORIGINS`) embeds the form through
//! `/checkout.js`:
//! - framed by a page on its own origin, the form loads (the control); framed by a page on an
//!   outsider's origin, Chromium refuses to show the card frame (`frame-ancestors`), and the
//!   element reports `frame_unavailable`;
//! - the frame's title and labels are in the page's language, and the partner's page changes
//!   the form's language with `setLocale` (a message to the frame);
//!   an outsider's ad frame beside the form posts the same messages to it without effect.

use std::time::Duration;

use crate::support::framing_pages::{meddler_page, outer_page};
use crate::support::partner::{EmulatorAt, PartnerRig};
use crate::support::site::{StaticSite, dist};
use crate::support::{Page, run};

const NUMBER_LABEL: &str = "label[for=cc-number]";

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
        ],
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn a_page_outside_the_allowed_origins_cannot_frame_the_form() {
    run("frame-ancestors", |page: Page| async move {
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
                Duration::from_secs(40),
                || async {
                    let error = page.try_find("#relayed li[data-event=error]").await?;
                    error.text().await.ok()
                },
            )
            .await;
        page.screenshot("refused").await;
        assert!(relayed.contains("frame_unavailable"), "{relayed}");
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
    })
    .await;
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
