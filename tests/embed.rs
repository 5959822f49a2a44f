//! Browser tests of embedding: the `<card-checkout>` element inside another page's shadow root,
//! its attributes and events, `mount` / `unmount`, and errors that name a wrong option.
#![cfg(target_arch = "wasm32")]

mod common;

use checkout::contract::{PayResponse, PaymentState};
use checkout::embed::mount::{mount, unmount};
use common::*;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::Element;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen_test]
async fn the_element_works_inside_a_shadow_root() {
    // The module's start function registers the element; the test harness does not run it.
    checkout::start();
    fake_server();
    route("GET", &checkout_path(), 200, &session_view(vec![], vec![]));
    let outer = container();
    capture(&outer);
    let shadow = outer
        .attach_shadow(&web_sys::ShadowRootInit::new(web_sys::ShadowRootMode::Open))
        .expect("shadow root");
    let document = web_sys::window()
        .expect("window")
        .document()
        .expect("document");
    let element = document.create_element("card-checkout").expect("element");
    for (name, value) in [
        ("session", SESSION),
        ("client-secret", SECRET),
        ("server", SERVER),
        ("locale", "en"),
    ] {
        element.set_attribute(name, value).expect("attribute");
    }
    shadow.append_child(&element).expect("append");
    let inner = || element.shadow_root().expect("own shadow root");
    let root = || -> Element { inner().first_element_child().expect("container") };
    until("form", || find(&root(), "#cc-submit").is_some()).await;
    // The shop's document cannot see into it, its own tree can.
    assert!(
        document
            .query_selector("#cc-submit")
            .expect("query")
            .is_none()
    );
    until("ready", || events(&outer).iter().any(|e| e.kind == "ready")).await;

    type_in(&root(), "#cc-number", "4242424242424242");
    let changes: Vec<_> = events(&outer)
        .into_iter()
        .filter(|e| e.kind == "change")
        .collect();
    let last = changes.last().expect("change event");
    assert_eq!(last.detail["brand"], "visa");
    assert_eq!(last.detail["complete"], false);
    assert_eq!(last.detail["empty"], false);
    assert!(!last.detail.to_string().contains("4242"), "{}", last.detail);

    element.set_attribute("locale", "fr").expect("locale");
    until("french", || {
        text(&root(), "label[for=cc-number]") == "Numéro de carte"
    })
    .await;
    assert_eq!(value(&root(), "#cc-number"), "4242 4242 4242 4242");

    element.remove();
    assert!(find(&root(), ".cc-root").is_none(), "unmounted on removal");
}

#[wasm_bindgen_test]
async fn the_element_reports_a_complete_payment() {
    checkout::start();
    fake_server();
    route("GET", &checkout_path(), 200, &session_view(vec![], vec![]));
    route(
        "POST",
        &pay_path(),
        200,
        &PayResponse::None {
            result: result(PaymentState::Captured),
        },
    );
    let outer = container();
    capture(&outer);
    outer.set_inner_html(
        &[
            "<card-checkout session=\"",
            SESSION,
            "\" client-secret=\"",
            SECRET,
            "\" server=\"",
            SERVER,
            "\" locale=\"en\"></card-checkout>",
        ]
        .concat(),
    );
    let element = outer.first_element_child().expect("element");
    let root = || -> Element {
        element
            .shadow_root()
            .expect("shadow")
            .first_element_child()
            .expect("container")
    };
    until("form", || find(&root(), "#cc-submit").is_some()).await;
    fill_card(&root());
    click(&root(), "#cc-submit");
    until("success", || {
        events(&outer).iter().any(|e| e.kind == "success")
    })
    .await;
    let kinds: Vec<String> = events(&outer).into_iter().map(|e| e.kind).collect();
    let first = |kind: &str| kinds.iter().position(|k| k == kind).expect(kind);
    assert!(first("ready") < first("change"));
    assert!(first("change") < first("submit"));
    assert!(first("submit") < first("success"));
    let complete = events(&outer)
        .into_iter()
        .rfind(|e| e.kind == "change")
        .expect("change");
    assert_eq!(complete.detail["complete"], true);
}

#[wasm_bindgen_test]
async fn mount_and_unmount() {
    fake_server();
    route("GET", &checkout_path(), 200, &session_view(vec![], vec![]));
    let host = container();
    let handle = mount(
        host.clone(),
        options(&[
            ("session", SESSION),
            ("clientSecret", SECRET),
            ("server", SERVER),
        ]),
    )
    .expect("mounts");
    let root: Element = host.clone().unchecked_into();
    until("form", || find(&root, "#cc-submit").is_some()).await;
    assert_eq!(
        requests_to("GET", &checkout_path())[0].headers["x-client-secret"],
        SECRET
    );
    unmount(handle);
    assert!(find(&root, ".cc-root").is_none());
    // A second component in the same container works after the first is gone.
    let again = mount(
        host.clone(),
        options(&[
            ("session", SESSION),
            ("clientSecret", SECRET),
            ("server", SERVER),
        ]),
    )
    .expect("mounts again");
    until("form again", || find(&root, "#cc-submit").is_some()).await;
    again.unmount();
    assert!(find(&root, ".cc-root").is_none());
}

#[wasm_bindgen_test]
fn a_wrong_option_is_named() {
    trap_console_error();
    let cases: [(JsValue, &str); 6] = [
        (
            options(&[("sesion", SESSION), ("clientSecret", SECRET)]),
            "sesion",
        ),
        (options(&[("clientSecret", SECRET)]), "`session`"),
        (options(&[("session", SESSION)]), "`clientSecret`"),
        (
            options(&[
                ("session", SESSION),
                ("clientSecret", SECRET),
                ("mode", "shop"),
            ]),
            "`mode`",
        ),
        (options(&[("mode", "subscriptions")]), "`customerToken`"),
        (
            options(&[
                ("session", SESSION),
                ("clientSecret", SECRET),
                ("server", "ftp://x"),
            ]),
            "`server`",
        ),
    ];
    for (given, named) in cases {
        let host = container();
        capture(&host);
        let Err(thrown) = mount(host.clone(), given) else {
            panic!("mount accepted options without {named}");
        };
        let message: String = thrown
            .dyn_into::<js_sys::Error>()
            .expect("an Error")
            .message()
            .into();
        assert!(message.contains(named), "{message}");
        assert!(message.starts_with("card-checkout: "), "{message}");
        let logged = errors_logged();
        assert!(
            logged.last().is_some_and(|l| l.contains(named)),
            "{logged:?}"
        );
        let error = events(&host)
            .into_iter()
            .find(|e| e.kind == "error")
            .expect("error event");
        assert_eq!(error.detail["code"], "invalid_options");
    }
    // A wrongly typed value names its option too.
    let typed = js_sys::Object::new();
    js_sys::Reflect::set(&typed, &"session".into(), &JsValue::from_f64(5.0)).expect("set");
    let Err(thrown) = mount(container(), typed.into()) else {
        panic!("a number was accepted as the session");
    };
    let message: String = thrown.unchecked_into::<js_sys::Error>().message().into();
    assert!(message.contains("`session`"), "{message}");
}

#[wasm_bindgen_test]
async fn an_element_upgraded_with_its_attributes_mounts_once() {
    checkout::start();
    fake_server();
    route("GET", &checkout_path(), 200, &session_view(vec![], vec![]));
    let outer = container();
    capture(&outer);
    let element = inert_element("card-checkout");
    for (name, value) in [
        ("session", SESSION),
        ("client-secret", SECRET),
        ("server", SERVER),
        ("locale", "en"),
        ("mode", "checkout"),
    ] {
        element.set_attribute(name, value).expect("attribute");
    }
    // Upgrading calls attributeChangedCallback once per attribute, then connectedCallback.
    outer.append_child(&element).expect("append");
    let root = || -> Element {
        element
            .shadow_root()
            .expect("shadow")
            .first_element_child()
            .expect("container")
    };
    until("the form", || find(&root(), "#cc-submit").is_some()).await;
    sleep(50).await;
    let kinds: Vec<String> = events(&outer).into_iter().map(|e| e.kind).collect();
    assert_eq!(kinds, ["ready"]);
    assert_eq!(requests_to("GET", &checkout_path()).len(), 1);
}
