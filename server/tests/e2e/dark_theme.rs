//! The dark preset and `prefers-color-scheme`: a shop's page gives `<card-checkout>` the CSS
//! `color-scheme: dark`, and the card form in checkout-server's frame is dark (the HTML form
//! the frame document carries, then the component); with `light dark` it follows the
//! shopper's setting (emulated through DevTools), and with nothing set it stays light.

use crate::support::cdp;
use crate::support::form::ids;
use crate::support::partner::{EmulatorAt, PartnerRig};
use crate::support::{Page, run};

/// The form's background colour and the number input's text colour, as the browser paints them.
async fn colours(page: &Page) -> (String, String) {
    let background = page.css(".cc-root", "background-color").await;
    let text = page.css(ids::NUMBER, "color").await;
    (background.unwrap_or_default(), text.unwrap_or_default())
}

/// Opens the partner's page with `scheme` on the element and waits for the component.
async fn open(page: &Page, rig: &PartnerRig, scheme: &str) {
    let (session, secret, _) = rig.session(1200, "EUR", "dark").await;
    let url = format!("{}&scheme={scheme}", rig.isolated_url(&session, &secret));
    page.goto(&url).await;
    page.find("#events li[data-event=ready]").await;
}

const LIGHT: &str = "rgba(255, 255, 255, 1)";
const DARK: &str = "rgba(20, 24, 29, 1)";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
async fn the_dark_preset_and_the_shoppers_setting_reach_the_frame() {
    run("dark-theme", |page: Page| async move {
        let rig = PartnerRig::start(EmulatorAt::InProcess, vec![]);

        open(&page, &rig, "dark").await;
        let (background, text) = colours(&page).await;
        assert_eq!(background, DARK, "color-scheme: dark gives the dark preset");
        assert_ne!(
            text, "rgba(31, 41, 51, 1)",
            "dark text would vanish on it: {text}"
        );
        page.screenshot("dark").await;

        open(&page, &rig, "").await;
        assert_eq!(colours(&page).await.0, LIGHT, "no color-scheme: light");

        open(&page, &rig, "light%20dark").await;
        assert_eq!(colours(&page).await.0, LIGHT, "follows the shopper: light");
        cdp::prefer_color_scheme(&page.client, "dark").await;
        open(&page, &rig, "light%20dark").await;
        assert_eq!(colours(&page).await.0, DARK, "follows the shopper: dark");
        page.screenshot("follows-dark").await;
    })
    .await;
}
