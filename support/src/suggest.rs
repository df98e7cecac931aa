//! The nearest allowed value to a misspelt one (`a10g-smal` → `a10g-small`), for the messages
//! that refuse it: a string enum's `FromStr` ([`super::enums::parse_or_explain`]) and
//! `cargo xtask validate`. One rule, here, so that both suggest the same value.

/// The candidate nearest to `given`, when it is close enough to be a likely misspelling: at
/// most three edits, and at most a third of the longer word (so `gpu` suggests nothing among
/// `cpu-basic` and `a10g-small`). `None` when `given` is itself a candidate.
pub fn nearest<'a>(given: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let (distance, nearest) = candidates
        .into_iter()
        .map(|candidate| (edit_distance(given, candidate), candidate))
        .min_by_key(|(distance, _)| *distance)?;
    let longest = given.chars().count().max(nearest.chars().count());
    (distance > 0 && distance <= 3 && distance * 3 <= longest.max(3)).then_some(nearest)
}

/// Edit distance over characters (optimal string alignment): inserting, deleting or replacing
/// a character, or swapping two neighbours, costs one, so `rpeo` is one edit from `repo`.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // rows[i][j]: the distance between the first i characters of `a` and the first j of `b`.
    let mut rows = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let replace = rows[i - 1][j - 1] + usize::from(a[i - 1] != b[j - 1]);
            let mut best = replace.min(rows[i - 1][j] + 1).min(rows[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distance_counts_single_edits() {
        assert_eq!(edit_distance("a10g-smal", "a10g-small"), 1);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("rpeo", "repo"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("same", "same"), 0);
    }

    #[test]
    fn the_nearest_close_candidate_is_suggested() {
        let flavors = ["cpu-basic", "a10g-small", "a10g-large"];
        assert_eq!(nearest("a10g-smal", flavors), Some("a10g-small"));
        assert_eq!(nearest("unred", ["all", "unread"]), Some("unread"));
        assert_eq!(nearest("gpu", flavors), None, "nothing near");
        assert_eq!(nearest("cpu-basic", flavors), None, "a candidate itself");
        assert_eq!(nearest("x", []), None);
    }
}
