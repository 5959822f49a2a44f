//! README.md's `toml` snippet (a subscription plan) is a configuration file checkout-server
//! reads as written: loaded with `--config`, its plans replace the demo catalogue and every
//! key it sets is the plan's (`discount_percentage` and `discount_cycles` its discount).

use checkout_server::config::Config;

use super::snippets;
use crate::compose;

#[test]
fn the_plan_snippet_is_a_valid_config_file() {
    let [snippet] = snippets::of("toml").try_into().expect("one toml snippet");
    let at = format!("README.md:{}", snippet.line);
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("checkout.toml");
    std::fs::write(&file, &snippet.code).expect("write the file");
    let config = Config::load_from(Some(&file), &|_| None, &compose::emulator_defaults())
        .unwrap_or_else(|e| panic!("{at}: checkout-server refuses it: {e}"));

    let written: toml::Table = toml::from_str(&snippet.code).expect("toml");
    let plans = written["plans"].as_table().expect("[plans.<id>] tables");
    assert_eq!(
        config.plans.len(),
        plans.len(),
        "{at}: its plans, not the demo catalogue"
    );
    for (id, keys) in plans {
        let plan = config
            .plans
            .get(id)
            .unwrap_or_else(|| panic!("{at}: no plan {id}"));
        let loaded = serde_json::to_value(plan).expect("plan as JSON");
        for (key, value) in keys.as_table().expect("a plan table") {
            let got = match key.as_str() {
                "discount_percentage" => &loaded["discount"]["percentage"],
                "discount_cycles" => &loaded["discount"]["cycles"],
                key => &loaded[key],
            };
            let want = serde_json::to_value(value).expect("toml value as JSON");
            assert_eq!(got, &want, "{at}: plans.{id}.{key}");
        }
    }
}
