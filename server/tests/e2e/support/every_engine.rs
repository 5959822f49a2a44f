//! [`every_engine!`]: one scenario, a test for each engine. Beside the scenario `async fn
//! name(page: Page)`, `every_engine!(name, "label")` makes the module `name` (modules and
//! functions have separate namespaces) with the tests `chromium`, `firefox` and `webkit`, each
//! running the scenario through [`run_in`](super::run_in) in its engine. So `cargo test ... --
//! firefox` picks one engine's scenarios, `-- three_ds::` one file's in every engine.
//! Screenshots are named `<label>-<engine>-<step>.png`.

/// See the module's header.
macro_rules! every_engine {
    ($name:ident, $label:literal) => {
        mod $name {
            use crate::support::engine::Engine;

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            #[ignore = "end-to-end: needs dist/ and Chromium; run by scripts/test.sh"]
            async fn chromium() {
                crate::support::run_in(Engine::Chromium, $label, super::$name).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            #[ignore = "end-to-end: needs dist/, Firefox and geckodriver; run by scripts/test.sh"]
            async fn firefox() {
                crate::support::run_in(Engine::Firefox, $label, super::$name).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            #[ignore = "end-to-end: needs dist/, WebKitWebDriver and Xvfb; run by scripts/test.sh"]
            async fn webkit() {
                crate::support::run_in(Engine::WebKit, $label, super::$name).await;
            }
        }
    };
}

pub(crate) use every_engine;
