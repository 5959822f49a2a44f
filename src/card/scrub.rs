//! The one scrubber for error texts that may have seen card data: serde's messages quote the
//! offending value (`invalid type: integer `4242…`, expected a string`), and a custom error
//! could quote a number. [`scrub`] keeps what was expected and masks any long digit run, so
//! the text is fit for a log line or an error answer.

/// Kinds of serde message that quote the submitted value before `, expected …`.
const QUOTING_KINDS: [&str; 5] = [
    "invalid type",
    "invalid value",
    "invalid length",
    "unknown variant",
    "unknown field",
];

/// Shortest digit run masked: nine digits, shorter than any card number (12) but longer than
/// amounts, dates and counts an error text legitimately carries.
const MASKED_RUN: usize = 9;

/// `text` without submitted values: a quoting serde message becomes `"<kind>, expected
/// <what>"`, and every run of nine or more digits becomes `*`s.
pub fn scrub(text: &str) -> String {
    for kind in QUOTING_KINDS {
        if text.starts_with(kind) {
            let kept = match text.split_once(", expected ") {
                Some((_, expected)) => format!("{kind}, expected {expected}"),
                None => kind.to_owned(),
            };
            return mask_digit_runs(&kept);
        }
    }
    mask_digit_runs(text)
}

fn mask_digit_runs(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        if run.len() >= MASKED_RUN {
            out.extend(std::iter::repeat_n('*', run.len()));
        } else {
            out.push_str(run);
        }
        run.clear();
    };
    for ch in text.chars() {
        if ch.is_ascii_digit() {
            run.push(ch);
        } else {
            flush(&mut run, &mut out);
            out.push(ch);
        }
    }
    flush(&mut run, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drops_quoted_values_and_keeps_what_was_expected() {
        assert_eq!(
            scrub("invalid type: integer `4242424242424242`, expected a string"),
            "invalid type, expected a string"
        );
        assert_eq!(
            scrub("unknown variant `4111111111111111`, expected one of `a`, `b`"),
            "unknown variant, expected one of `a`, `b`"
        );
        assert_eq!(scrub("invalid value: string \"123\""), "invalid value");
    }

    #[test]
    fn masks_long_digit_runs_only() {
        assert_eq!(scrub("a 4242424242424242 b 12"), "a **************** b 12");
        assert_eq!(
            scrub("amount 12345678 on 2026-11-24"),
            "amount 12345678 on 2026-11-24"
        );
        assert_eq!(scrub("card 520000123"), "card *********");
    }
}
