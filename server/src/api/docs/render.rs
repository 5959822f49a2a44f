//! Walks the OpenAPI document (serde_json) into the reference page: a table of contents,
//! each tag's operations (method, path, summary, description, auth, parameters, request body
//! with its properties, responses), the error codes (`x-error-codes` of the `Error` schema)
//! and every component schema. Each text taken from the document is escaped ([`html`]).

use serde_json::Value;

use super::html::{anchor, escape, prose};

const METHODS: [&str; 5] = ["get", "post", "put", "patch", "delete"];
const STYLE: &str = "body{font:15px/1.5 system-ui,sans-serif;max-width:70rem;margin:auto;\
padding:1rem 2rem;color:#1a1a1a}table{border-collapse:collapse;width:100%;margin:.5rem 0}\
th,td{border:1px solid #ccc;padding:.25rem .5rem;text-align:left;vertical-align:top}\
th{background:#f3f3f3}code{background:#f3f3f3;padding:0 .2rem}\
.op{border-top:2px solid #ddd;margin-top:2rem}.m{font-weight:bold;text-transform:uppercase}";

/// The whole page.
pub fn page(doc: &Value) -> String {
    let title = text(&doc["info"]["title"]);
    let mut out = format!(
        "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
<title>{t} reference</title><style>{STYLE}</style></head><body><h1>{t} <small>{v}</small></h1>\
<p>{d}</p><p>Machine-readable: <a href=\"/openapi.json\">/openapi.json</a>.</p>",
        t = escape(title),
        v = escape(text(&doc["info"]["version"])),
        d = prose(text(&doc["info"]["description"])),
    );
    let tags = tags(doc);
    out.push_str("<nav><h2>Contents</h2><ul>");
    for tag in &tags {
        out.push_str(&format!(
            "<li><a href=\"#{}\">{}</a><ul>",
            anchor("tag-", tag),
            escape(tag)
        ));
        for (path, method, op) in operations(doc, tag) {
            out.push_str(&format!(
                "<li><a href=\"#{}\"><span class=\"m\">{}</span> {}</a> {}</li>",
                anchor("op-", &format!("{method} {path}")),
                escape(method),
                escape(path),
                escape(text(&op["summary"]))
            ));
        }
        out.push_str("</ul></li>");
    }
    out.push_str("<li><a href=\"#errors\">Errors</a></li><li><a href=\"#schemas\">Schemas</a></li></ul></nav>");
    for tag in &tags {
        out.push_str(&format!(
            "<h2 id=\"{}\">{}</h2>",
            anchor("tag-", tag),
            escape(tag)
        ));
        for (path, method, op) in operations(doc, tag) {
            operation(&mut out, doc, path, method, op);
        }
    }
    errors(&mut out, doc);
    schemas(&mut out, doc);
    out.push_str("</body></html>\n");
    out
}

fn text(value: &Value) -> &str {
    value.as_str().unwrap_or("")
}

/// The document's tags in order, then any tag only an operation names.
fn tags(doc: &Value) -> Vec<String> {
    let mut tags: Vec<String> = doc["tags"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|tag| text(&tag["name"]).to_owned())
        .collect();
    for (_, _, op) in all_operations(doc) {
        let tag = op_tag(op);
        if !tags.iter().any(|t| t == tag) {
            tags.push(tag.to_owned());
        }
    }
    tags
}

fn op_tag(op: &Value) -> &str {
    op["tags"][0].as_str().unwrap_or("Other")
}

fn all_operations(doc: &Value) -> Vec<(&str, &'static str, &Value)> {
    let mut ops = Vec::new();
    for (path, item) in doc["paths"].as_object().into_iter().flatten() {
        for method in METHODS {
            if let Some(op) = item.get(method) {
                ops.push((path.as_str(), method, op));
            }
        }
    }
    ops
}

fn operations<'a>(doc: &'a Value, tag: &str) -> Vec<(&'a str, &'static str, &'a Value)> {
    all_operations(doc)
        .into_iter()
        .filter(|(_, _, op)| op_tag(op) == tag)
        .collect()
}

/// Follows a `$ref` (to this document), up to a few levels.
fn resolve<'a>(doc: &'a Value, mut value: &'a Value) -> &'a Value {
    for _ in 0..4 {
        let Some(reference) = value["$ref"].as_str() else {
            break;
        };
        let pointer = reference.trim_start_matches('#');
        value = doc.pointer(pointer).unwrap_or(&Value::Null);
    }
    value
}

/// A schema's type in a few words, a named schema as a link to its section.
fn type_html(schema: &Value) -> String {
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap_or(reference);
        return format!(
            "<a href=\"#{}\">{}</a>",
            anchor("schema-", name),
            escape(name)
        );
    }
    for (key, joint) in [("allOf", " + "), ("oneOf", " or "), ("anyOf", " or ")] {
        if let Some(parts) = schema[key].as_array() {
            let kinds: Vec<String> = parts.iter().map(type_html).collect();
            return kinds.join(joint);
        }
    }
    let mut kind = match &schema["type"] {
        Value::String(kind) => escape(kind),
        Value::Array(kinds) => kinds
            .iter()
            .map(|k| escape(text(k)))
            .collect::<Vec<_>>()
            .join(" | "),
        _ => "any".to_owned(),
    };
    if schema["items"].is_object() {
        kind = format!("array of {}", type_html(&schema["items"]));
    }
    if let Some(format) = schema["format"].as_str() {
        kind.push_str(&format!(" ({})", escape(format)));
    }
    if let Some(values) = schema["enum"].as_array() {
        let values: Vec<String> = values
            .iter()
            .map(|v| format!("<code>{}</code>", escape(&v.to_string().replace('"', ""))))
            .collect();
        kind.push_str(&format!(": {}", values.join(", ")));
    }
    kind
}

fn operation(out: &mut String, doc: &Value, path: &str, method: &str, op: &Value) {
    out.push_str(&format!(
        "<section class=\"op\" id=\"{}\"><h3><span class=\"m\">{}</span> <code>{}</code></h3><p><b>{}</b></p>",
        anchor("op-", &format!("{method} {path}")),
        escape(method),
        escape(path),
        escape(text(&op["summary"]))
    ));
    if let Some(description) = op["description"].as_str() {
        out.push_str(&format!("<p>{}</p>", prose(description)));
    }
    out.push_str(&format!("<p>Auth: {}</p>", auth(doc, op)));
    let item = &doc["paths"][path];
    let params: Vec<&Value> = [&item["parameters"], &op["parameters"]]
        .into_iter()
        .filter_map(Value::as_array)
        .flatten()
        .map(|p| resolve(doc, p))
        .collect();
    if !params.is_empty() {
        out.push_str("<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>required</th><th>type</th><th>description</th></tr>");
        for p in params {
            out.push_str(&format!(
                "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(text(&p["name"])),
                escape(text(&p["in"])),
                if p["required"].as_bool() == Some(true) {
                    "yes"
                } else {
                    "no"
                },
                type_html(&p["schema"]),
                prose(text(&p["description"]))
            ));
        }
        out.push_str("</table>");
    }
    let body = resolve(doc, &op["requestBody"]);
    if let Some(content) = body["content"].as_object() {
        out.push_str("<h4>Request body</h4>");
        if let Some(description) = body["description"].as_str() {
            out.push_str(&format!("<p>{}</p>", prose(description)));
        }
        for (media, content) in content {
            out.push_str(&format!(
                "<p><code>{}</code>: {}</p>",
                escape(media),
                type_html(&content["schema"])
            ));
            properties(out, doc, &content["schema"]);
        }
    }
    out.push_str(
        "<h4>Responses</h4><table><tr><th>status</th><th>description</th><th>body</th></tr>",
    );
    for (status, response) in op["responses"].as_object().into_iter().flatten() {
        let response = resolve(doc, response);
        let body: Vec<String> = response["content"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(media, c)| format!("<code>{}</code> {}", escape(media), type_html(&c["schema"])))
            .collect();
        out.push_str(&format!(
            "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(status),
            prose(text(&response["description"])),
            body.join("<br>")
        ));
    }
    out.push_str("</table></section>");
}

/// The operation's security requirements, each with its scheme's description.
fn auth(doc: &Value, op: &Value) -> String {
    let security = op.get("security").or(doc.get("security"));
    let names: Vec<String> = security
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_object)
        .flat_map(|requirement| requirement.keys())
        .map(|name| {
            let scheme = &doc["components"]["securitySchemes"][name];
            format!(
                "<code>{}</code> ({})",
                escape(name),
                prose(text(&scheme["description"]))
            )
        })
        .collect();
    if names.is_empty() {
        "none".to_owned()
    } else {
        names.join(" or ")
    }
}

/// A table of the properties of `schema` (after its `$ref`s and `allOf` parts); nothing for
/// a schema without properties.
fn properties(out: &mut String, doc: &Value, schema: &Value) {
    let schema = resolve(doc, schema);
    let mut parts = vec![schema];
    parts.extend(
        schema["allOf"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|part| resolve(doc, part)),
    );
    let rows: Vec<String> = parts
        .iter()
        .flat_map(|part| {
            let required = part["required"].as_array();
            part["properties"]
                .as_object()
                .into_iter()
                .flatten()
                .map(move |(name, property)| {
                    let needed = required
                        .is_some_and(|r| r.iter().any(|n| n.as_str() == Some(name.as_str())));
                    format!(
                        "<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
                        escape(name),
                        type_html(property),
                        if needed { "yes" } else { "no" },
                        prose(text(&property["description"]))
                    )
                })
        })
        .collect();
    if !rows.is_empty() {
        out.push_str(
            "<table><tr><th>property</th><th>type</th><th>required</th><th>description</th></tr>",
        );
        out.push_str(&rows.concat());
        out.push_str("</table>");
    }
}

/// Every error code: code, HTTP status, meaning, what a shop should do.
fn errors(out: &mut String, doc: &Value) {
    out.push_str(
        "<h2 id=\"errors\">Errors</h2><p>Every error answer is <code>{\"error\": {\"code\", \
\"message\", \"field\"?}}</code>. Act on <code>code</code>; <code>message</code> is for developers.</p>\
<table><tr><th>code</th><th>HTTP status</th><th>meaning</th><th>what to do</th></tr>",
    );
    let codes = &doc["components"]["schemas"]["Error"]["x-error-codes"];
    for entry in codes.as_array().into_iter().flatten() {
        out.push_str(&format!(
            "<tr id=\"{}\"><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>",
            anchor("error-", text(&entry["code"])),
            escape(text(&entry["code"])),
            escape(&entry["status"].to_string()),
            prose(text(&entry["meaning"])),
            prose(text(&entry["action"]))
        ));
    }
    out.push_str("</table>");
}

/// Every component schema with its description and properties.
fn schemas(out: &mut String, doc: &Value) {
    out.push_str("<h2 id=\"schemas\">Schemas</h2>");
    for (name, schema) in doc["components"]["schemas"]
        .as_object()
        .into_iter()
        .flatten()
    {
        out.push_str(&format!(
            "<h3 id=\"{}\">{}</h3>",
            anchor("schema-", name),
            escape(name)
        ));
        if schema.get("allOf").is_none() {
            out.push_str(&format!(
                "<p>{}</p>",
                type_html(&without_description(schema))
            ));
        }
        if let Some(description) = schema["description"].as_str() {
            out.push_str(&format!("<p>{}</p>", prose(description)));
        }
        properties(out, doc, schema);
    }
}

/// `schema` without its description, which its section shows apart.
fn without_description(schema: &Value) -> Value {
    let mut schema = schema.clone();
    if let Some(object) = schema.as_object_mut() {
        object.remove("description");
    }
    schema
}
