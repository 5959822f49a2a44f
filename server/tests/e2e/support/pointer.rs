//! Clicking an element the way each engine's driver allows. chromedriver and geckodriver click
//! with WebDriver's Element Click. WebKitWebDriver's Element Click hit-tests the element's
//! centre in the document and, for an element inside a shadow root, finds the shadow host
//! there and refuses ("element click intercepted"), so in WebKit the element is scrolled into
//! view, and the mouse moved to its centre and pressed with WebDriver actions, which is what a
//! person's click is.

use fantoccini::Client;
use fantoccini::actions::{InputSource, MOUSE_BUTTON_LEFT, MouseActions, PointerAction};
use fantoccini::elements::Element;
use fantoccini::error::CmdError;

use super::engine::Engine;

/// Clicks `element` in `engine`.
pub async fn click(client: &Client, engine: Engine, element: &Element) -> Result<(), CmdError> {
    if engine != Engine::WebKit {
        return element.click().await;
    }
    let to_centre = "arguments[0].scrollIntoView({ block: 'center', inline: 'center' });";
    let argument = serde_json::to_value(element).map_err(CmdError::Json)?;
    client.execute(to_centre, vec![argument]).await?;
    let mouse = MouseActions::new("mouse".to_owned())
        .then(PointerAction::MoveToElement {
            element: element.clone(),
            duration: None,
            x: 0.0,
            y: 0.0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    client.perform_actions(mouse).await?;
    client.release_actions().await
}
