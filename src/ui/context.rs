//! What every view needs: the current language, the server client and the event target.

use crate::browser::http::Api;
use crate::embed::events::Events;
use crate::i18n::{Locale, Msg};
use reactive_graph::owner::{LocalStorage, StoredValue};
use reactive_graph::prelude::*;
use reactive_graph::signal::RwSignal;
use serde::Serialize;

/// Copyable handle to the component's shared state.
#[derive(Clone, Copy)]
pub struct Ctx {
    /// The language; changing it re-renders the view in the new language.
    pub locale: RwSignal<Locale>,
    api: StoredValue<Api>,
    events: StoredValue<Events, LocalStorage>,
    /// The language the view being built uses (see [`Ctx::rendering`]).
    pub loc: Locale,
}

impl Ctx {
    /// Creates the shared state; call inside the component's reactive owner.
    pub fn new(locale: Locale, api: Api, events: Events) -> Self {
        Self {
            locale: RwSignal::new(locale),
            api: StoredValue::new(api),
            events: StoredValue::new_local(events),
            loc: locale,
        }
    }

    /// A copy for building a view: reads (and so subscribes to) the current language.
    pub fn rendering(self) -> Self {
        Self {
            loc: self.locale.get(),
            ..self
        }
    }

    /// The text of `msg` in the language of the view being built.
    pub fn t(self, msg: Msg) -> &'static str {
        self.loc.text(msg)
    }

    /// The text of `msg` in the current language, for code outside a view build (in the
    /// language the view was built in once the component is gone).
    pub fn now(self, msg: Msg) -> &'static str {
        self.locale
            .try_get_untracked()
            .unwrap_or(self.loc)
            .text(msg)
    }

    /// A clone of the server client for an async task, or `None` once the component is
    /// unmounted: a task that outlives it then stops without sending anything.
    pub fn api(self) -> Option<Api> {
        self.api.try_get_value()
    }

    /// Dispatches a component event; false when a listener cancelled it (or the component is
    /// gone).
    pub fn emit<T: Serialize>(self, name: &str, detail: &T) -> bool {
        self.events
            .try_with_value(|events| events.emit(name, detail))
            .unwrap_or(false)
    }
}
