//! How a shop embeds the component: `mount(element, options)` / `unmount`, the
//! `<card-checkout>` custom element, typed options, and the DOM events it emits.

pub mod element;
pub mod events;
pub mod mount;
pub mod options;
