//! Reading Rust source as words: identifiers, and the source with its comments, strings and
//! character literals blanked out, so a path written in prose or in a string is no import.

/// Whether `c` can start an identifier.
pub fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

/// Whether `c` can stand inside an identifier.
pub fn is_ident_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The identifier starting at `at` (empty when none does).
pub fn ident_at(bytes: &[u8], at: usize) -> &str {
    let end = (at..bytes.len())
        .find(|&j| !is_ident_byte(bytes[j]))
        .unwrap_or(bytes.len());
    std::str::from_utf8(&bytes[at.min(end)..end]).unwrap_or("")
}

/// The first position from `at` that is not white space.
pub fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    at
}

/// `source` with comments, string and character literals turned to spaces (line breaks kept,
/// so line numbers still hold).
pub fn blank_comments_and_literals(source: &str) -> String {
    let bytes = source.as_bytes();
    let mut out = bytes.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for byte in &mut out[from..to.min(bytes.len())] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    };
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"//") {
            let end = (i..bytes.len())
                .find(|&j| bytes[j] == b'\n')
                .unwrap_or(bytes.len());
            blank(&mut out, i, end);
            i = end;
        } else if rest.starts_with(b"/*") {
            let end = find(bytes, i + 2, b"*/").map_or(bytes.len(), |j| j + 2);
            blank(&mut out, i, end);
            i = end;
        } else if let Some(hashes) = raw_string_start(bytes, i) {
            // r"…", r#"…"#, br#"…"# …: ends at a quote followed by as many hashes.
            let open = i + (rest[0] == b'b') as usize + 1 + hashes + 1;
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            let end = find(bytes, open, &close).map_or(bytes.len(), |j| j + close.len());
            blank(&mut out, i, end);
            i = end;
        } else if rest[0] == b'"' {
            let mut j = i + 1;
            while j < bytes.len() && bytes[j] != b'"' {
                j += if bytes[j] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, i, j + 1);
            i = j + 1;
        } else if rest[0] == b'\'' {
            // A character literal ('x', '\n', '\u{7f}'); otherwise a lifetime.
            if rest.get(1) == Some(&b'\\') {
                let end = (i + 3..bytes.len())
                    .find(|&j| bytes[j] == b'\'')
                    .map_or(bytes.len(), |j| j + 1);
                blank(&mut out, i, end);
                i = end;
            } else if let Some(len) = char_literal_len(rest) {
                blank(&mut out, i, i + len);
                i += len;
            } else {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

/// With a raw string starting at `i`, the number of its hashes.
fn raw_string_start(bytes: &[u8], i: usize) -> Option<usize> {
    if i > 0 && is_ident_byte(bytes[i - 1]) {
        return None;
    }
    let mut j = i;
    if bytes.get(j) == Some(&b'b') {
        j += 1;
    }
    if bytes.get(j) != Some(&b'r') {
        return None;
    }
    j += 1;
    let hashes = bytes[j..].iter().take_while(|&&b| b == b'#').count();
    (bytes.get(j + hashes) == Some(&b'"')).then_some(hashes)
}

/// The length of the one-character literal `rest` starts with (`'x'`, `'é'`), if it is one.
fn char_literal_len(rest: &[u8]) -> Option<usize> {
    let text = std::str::from_utf8(rest).ok()?;
    let mut chars = text.char_indices().skip(1);
    let (_, c) = chars.next()?;
    let (at, close) = chars.next()?;
    (close == '\'' && c != '\'').then_some(at + 1)
}

fn find(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    (from..bytes.len().saturating_sub(needle.len() - 1)).find(|&j| bytes[j..].starts_with(needle))
}
