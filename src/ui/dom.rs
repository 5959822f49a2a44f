//! A tiny DOM builder on leptos's reactive core: `el("label").class("field").attr("for", id)
//! .child(...)`. Each element is built once; reactive parts are `RenderEffect`s over boxed
//! closures and event handlers are boxed closures, so a new binding adds only its own body to
//! the wasm, not a new monomorphised view type. Effects and handlers belong to the current
//! reactive owner and are released with it (on re-render or unmount).
//!
//! Why not leptos's `view!`: measured, the builder costs half the bytes of `view!` for the
//! form's shape, and the bundle's size is what a shopper on a slow phone waits for.

use reactive_graph::effect::RenderEffect;
use reactive_graph::owner::StoredValue;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::Closure;
use web_sys::{Element, Event};

/// An element under construction.
#[derive(Clone)]
pub struct El(pub Element);

/// A new `<tag>` (an empty `<div>` if the document is unavailable, which never happens in a
/// page).
pub fn el(tag: &str) -> El {
    let element = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.create_element(tag).ok());
    El(element.unwrap_or_else(|| JsCast::unchecked_into(js_sys::Object::new())))
}

/// Runs `f` now and again whenever a signal it read changes, until the current owner goes.
pub fn effect(f: Box<dyn Fn()>) {
    let effect = RenderEffect::new(move |_| f());
    StoredValue::new_local(effect);
}

/// Sets `name` to `value`, or removes it for `None`.
pub fn set_attr(element: &Element, name: &str, value: Option<&str>) {
    let _ = match value {
        Some(value) => element.set_attribute(name, value),
        None => element.remove_attribute(name),
    };
}

fn listen(element: &Element, event: &str, f: Box<dyn Fn(Event)>) {
    let closure = Closure::wrap(f);
    let _ = element.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
    StoredValue::new_local(closure);
}

/// A window event listener, removed when its owner goes.
struct WindowListener {
    event: &'static str,
    closure: Closure<dyn Fn(Event)>,
}

impl Drop for WindowListener {
    fn drop(&mut self) {
        if let Some(window) = web_sys::window() {
            let _ = window.remove_event_listener_with_callback(
                self.event,
                self.closure.as_ref().unchecked_ref(),
            );
        }
    }
}

/// Handles `event` on the window until the current owner goes.
pub fn on_window(event: &'static str, f: impl Fn(Event) + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let closure = Closure::<dyn Fn(Event)>::wrap(Box::new(f));
    let _ = window.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
    StoredValue::new_local(WindowListener { event, closure });
}

impl El {
    /// Sets an attribute.
    pub fn attr(self, name: &str, value: &str) -> Self {
        set_attr(&self.0, name, Some(value));
        self
    }

    /// Sets `id`.
    pub fn id(self, id: &str) -> Self {
        self.attr("id", id)
    }

    /// Sets `class`.
    pub fn class(self, class: &str) -> Self {
        self.attr("class", class)
    }

    /// Appends text.
    pub fn text(self, text: &str) -> Self {
        let _ = self.0.append_with_str_1(text);
        self
    }

    /// Appends a child element.
    pub fn child(self, child: El) -> Self {
        let _ = self.0.append_child(&child.0);
        self
    }

    /// Appends a child when there is one.
    pub fn optional_child(self, child: Option<El>) -> Self {
        match child {
            Some(child) => self.child(child),
            None => self,
        }
    }

    /// Appends children.
    pub fn children(self, children: Vec<El>) -> Self {
        children.into_iter().fold(self, El::child)
    }

    /// Handles `event`.
    pub fn on(self, event: &str, f: impl Fn(Event) + 'static) -> Self {
        listen(&self.0, event, Box::new(f));
        self
    }

    /// Keeps the element in step with signals: `f` runs now and after each change.
    pub fn bind(self, f: impl Fn(&Element) + 'static) -> Self {
        let element = self.0.clone();
        effect(Box::new(move || f(&element)));
        self
    }

    /// Keeps the text content equal to `f()`.
    pub fn text_of(self, f: impl Fn() -> String + 'static) -> Self {
        self.bind(move |e| e.set_text_content(Some(&f())))
    }

    /// Keeps attribute `name` equal to `f()` (absent for `None`).
    pub fn attr_of(
        self,
        name: &'static str,
        f: impl Fn() -> Option<&'static str> + 'static,
    ) -> Self {
        self.bind(move |e| set_attr(e, name, f()))
    }

    /// Replaces the children with `f()` now and whenever a signal `f` read changes; what the
    /// previous render created (effects, handlers) is released first.
    pub fn region(self, f: impl Fn() -> Option<El> + 'static) -> Self {
        self.bind(move |e| match f() {
            Some(child) => e.replace_children_with_node_1(&child.0),
            None => e.replace_children_with_node_0(),
        })
    }
}
