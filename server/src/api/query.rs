//! Query-string parameters of the merchant list endpoints: decoding, the paging pair
//! (`limit`, `after`) they share, and the error for a parameter an endpoint does not know.

use reqwest::Url;

use crate::store::model::PageCursor;
use crate::store::model::page::MAX_PAGE_SIZE;
use crate::web::ApiFailure;

/// The decoded `name=value` pairs of a raw query string, in order.
pub fn pairs(raw: &str) -> Result<Vec<(String, String)>, ApiFailure> {
    let url = Url::parse(&format!("http://query.invalid/?{raw}")).map_err(|_| {
        ApiFailure::invalid("invalid_query", "query", "the query string is malformed")
    })?;
    Ok(url
        .query_pairs()
        .map(|(k, v)| (k.into_owned(), v.into_owned()))
        .collect())
}

/// `limit`: a page size from 1 to [`MAX_PAGE_SIZE`].
pub fn limit(value: &str) -> Result<u32, ApiFailure> {
    value
        .parse()
        .ok()
        .filter(|l| (1..=MAX_PAGE_SIZE).contains(l))
        .ok_or_else(|| ApiFailure::invalid("invalid_field", "limit", "limit: must be 1 to 100"))
}

/// `after`: a cursor from an earlier page's `next_cursor`.
pub fn cursor(value: &str) -> Result<PageCursor, ApiFailure> {
    value.parse::<PageCursor>().map_err(|_| {
        ApiFailure::invalid(
            "invalid_field",
            "after",
            "after: not a cursor this server issued",
        )
    })
}

/// The paging pair of a list that takes nothing else (`limit`, `after`); any other parameter
/// is refused by name.
pub fn page_only(raw: Option<&str>) -> Result<(u32, Option<PageCursor>), ApiFailure> {
    let (mut size, mut after) = (0, None);
    for (name, value) in pairs(raw.unwrap_or_default())? {
        match name.as_str() {
            "limit" => size = limit(&value)?,
            "after" => after = Some(cursor(&value)?),
            other => return Err(unknown(other)),
        }
    }
    Ok((size, after))
}

/// A parameter the endpoint does not take.
pub fn unknown(name: &str) -> ApiFailure {
    ApiFailure::invalid(
        "unknown_parameter",
        name,
        format!("{name}: unknown query parameter"),
    )
}
