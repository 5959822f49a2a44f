//! The one renderer for every input: label, control, brand badge (number only) and error text,
//! wired for screen readers (`aria-invalid`, `aria-describedby`) and the browser's autofill.

use super::context::Ctx;
use super::countries::country_select;
use super::dom::{El, el};
use super::form_state::FormState;
use crate::card::Brand;
use crate::form_fields::FieldKind;
use crate::i18n::Msg;
use reactive_graph::prelude::*;
use wasm_bindgen::JsCast;

/// Renders `kind` bound to `form`; typing emits the `change` event.
pub fn field(c: Ctx, form: FormState, kind: FieldKind) -> El {
    let state = form.field(kind);
    let id = kind.id();
    let error_id = kind.error_id();
    let control = if kind == FieldKind::Country {
        let current = state.value.get_untracked();
        country_select(el("select"), c.loc, c.t(Msg::ChooseCountry), &current)
    } else {
        let input = el("input").attr("type", kind.input_type()).bind(move |e| {
            let value = state.value.get();
            let input: &web_sys::HtmlInputElement = e.unchecked_ref();
            if input.value() != value {
                input.set_value(&value);
            }
        });
        match kind.inputmode() {
            Some(mode) => input.attr("inputmode", mode).attr("dir", "ltr"),
            None => input,
        }
    };
    let element = control.0.clone();
    let event = if kind == FieldKind::Country {
        "change"
    } else {
        "input"
    };
    let control = control
        .id(id)
        .attr("name", id)
        .attr("autocomplete", kind.autocomplete())
        .attr("aria-required", "true")
        .attr_of("aria-invalid", move || state.error.get().map(|_| "true"))
        .attr_of("aria-describedby", move || {
            state.error.get().map(|_| error_id)
        })
        .on(event, move |_| {
            match element.dyn_ref::<web_sys::HtmlInputElement>() {
                Some(input) => form.on_input(kind, input),
                None => {
                    let select: &web_sys::HtmlSelectElement = element.unchecked_ref();
                    form.set_value(kind, select.value());
                }
            }
            c.emit("change", &form.change_detail());
        })
        .on("blur", move |_| form.on_blur(kind));
    let brand = (kind == FieldKind::Number).then(|| {
        el("span").id("cc-brand").class("cc-brand").bind(move |e| {
            let brand = form.brand();
            let _ = e.set_attribute("data-brand", brand.id());
            e.set_text_content(Some(match brand {
                Brand::Unknown => "",
                brand => brand.display_name(),
            }));
        })
    });
    el("div")
        .class("cc-field")
        .attr("data-field", id)
        .child(el("label").attr("for", id).text(c.t(kind.label())))
        .child(control)
        .optional_child(brand)
        .child(el("p").id(error_id).class("cc-error").text_of(move || {
            state
                .error
                .get()
                .map(|problem| problem.text(c.loc))
                .unwrap_or_default()
        }))
}
