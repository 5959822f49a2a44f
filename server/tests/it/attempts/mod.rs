//! Issue 45, one checkout, one charge: the reproductions of the four ways the attempt rules
//! disagreed ([`repro`]), the backend samples fed the exact events of a late approval and of a
//! staff refund ([`samples`]), and the model test of the attempt rules ([`model`]).

mod model;
mod model_check;
mod repro;
mod samples;
pub(crate) mod support;
