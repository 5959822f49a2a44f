//! Reads a catalogue's `Id=text` lines into its texts in [`Msg`] order. Lenient, because a page
//! may pair a component with a catalogue of another version: a line with an unknown id is
//! skipped and a missing message stays empty (shown in English). The tests hold every
//! shipped catalogue to [`check`] instead, which refuses both.

use super::Msg;

/// The texts of `catalogue` in [`Msg`] order, `""` where it has no line for the message.
pub fn texts(catalogue: &'static str) -> Vec<&'static str> {
    let mut texts = vec![""; Msg::COUNT];
    for line in catalogue.lines() {
        let Some((id, text)) = line.split_once('=') else {
            continue;
        };
        if let Some(at) = index_of(id) {
            texts[at] = text;
        }
    }
    texts
}

/// The position in [`Msg`] order of the message with `id`.
fn index_of(id: &str) -> Option<usize> {
    Msg::IDS.iter().position(|known| *known == id)
}

/// Every problem of `catalogue`: lines that are not `Id=text`, unknown and repeated ids,
/// missing messages, empty texts.
#[cfg(test)]
pub fn check(catalogue: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let mut seen = [false; Msg::COUNT];
    for line in catalogue.lines() {
        let Some((id, text)) = line.split_once('=') else {
            problems.push(format!("not `Id=text`: {line:?}"));
            continue;
        };
        match index_of(id) {
            None => problems.push(format!("unknown id {id}")),
            Some(at) if seen[at] => problems.push(format!("{id} twice")),
            Some(at) => seen[at] = true,
        }
        if text.trim().is_empty() {
            problems.push(format!("{id} is empty"));
        }
    }
    for (at, found) in seen.iter().enumerate() {
        if !found {
            problems.push(format!("{} missing", Msg::IDS[at]));
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_by_id_in_any_order_and_skips_what_it_does_not_know() {
        let texts = texts("LabelNumber=Card number\nNoSuchId=x\nnot a line\nLabelName=Name");
        assert_eq!(texts[Msg::LabelName as usize], "Name");
        assert_eq!(texts[Msg::LabelNumber as usize], "Card number");
        assert_eq!(texts[Msg::LabelCvc as usize], "");
        assert_eq!(texts.len(), Msg::COUNT);
    }

    #[test]
    fn check_names_every_problem() {
        let problems = check("LabelName=a\nLabelName=b\nNoSuchId=c\nLabelCvc=\nno equals");
        for expected in [
            "LabelName twice",
            "unknown id NoSuchId",
            "LabelCvc is empty",
            "not `Id=text`: \"no equals\"",
            "LabelNumber missing",
        ] {
            assert!(
                problems.iter().any(|p| p == expected),
                "{expected}: {problems:?}"
            );
        }
    }
}
