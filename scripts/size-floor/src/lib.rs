//! A counter button: one leptos signal, one render effect, one click handler. With `options`
//! it first reads `{ session, clientSecret, server? }` through serde-wasm-bindgen; with
//! `request` a gloo-net GET sets the counter. Nothing else, so its size is a floor.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

/// The options, as the component reads its own.
#[cfg(feature = "options")]
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Options {
    session: String,
    client_secret: String,
    server: Option<String>,
}

/// Renders the counter into `element`.
#[wasm_bindgen]
pub fn mount(element: web_sys::HtmlElement, options: JsValue) -> Result<(), JsValue> {
    #[cfg(feature = "options")]
    {
        let options: Options = serde_wasm_bindgen::from_value(options)?;
        let server = options.server.unwrap_or_default();
        element.set_attribute(
            "data-session",
            &[options.session, options.client_secret, server].concat(),
        )?;
    }
    #[cfg(not(feature = "options"))]
    let _ = options;
    let document = web_sys::window()
        .and_then(|window| window.document())
        .ok_or("no document")?;
    let button = document.create_element("button")?;
    let owner = Owner::new();
    owner.with(|| {
        let count = RwSignal::new(0u32);
        let shown = button.clone();
        let effect =
            RenderEffect::new(move |_| shown.set_text_content(Some(&count.get().to_string())));
        std::mem::forget(effect);
        let click = Closure::<dyn Fn(web_sys::Event)>::new(move |_| count.update(|n| *n += 1));
        let _ = button.add_event_listener_with_callback("click", click.as_ref().unchecked_ref());
        click.forget();
        #[cfg(feature = "request")]
        wasm_bindgen_futures::spawn_local(async move {
            if let Ok(response) = gloo_net::http::Request::get("/count").send().await {
                if let Ok(text) = response.text().await {
                    count.set(text.len() as u32);
                }
            }
        });
    });
    std::mem::forget(owner);
    element.append_child(&button)?;
    Ok(())
}
