//! **Operation ids** synthesised where absent, and where an id makes the same method name as an
//! earlier operation's (see [`operation_ids`] for the naming scheme).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::{Finding, FindingKind, snake};
use crate::model::{is_method, push};

/// Synthesises an `operationId` for every operation without one.
///
/// The name is the method, then the path's fixed segments (parameters and a leading `api` or
/// version segment such as `v2` dropped), each segment followed by a parameter singularised
/// because it names one resource of a collection:
///
/// 1. first the short form, the method with the first and the last fixed segment:
///    `GET /api/models/{namespace}/{repo}/tree/{rev}` is `get_model_tree`, `GET /api/models`
///    is `get_models`, `DELETE /api/spaces/{ns}/{repo}/secrets/{key}` is `delete_space_secret`;
/// 2. operations whose short forms collide (with each other or with a declared id) use every
///    fixed segment: `get_model_discussion_comment`;
/// 3. still colliding, `_by_` and the parameters' names are appended;
/// 4. and as a last resort a counter (`_2`, `_3`, in path order).
///
/// A path without fixed segments is `root`. The result depends only on the document.
pub fn operation_ids(document: &mut Value, findings: &mut Vec<Finding>) {
    // The client's own methods are methods no operation can also be (gambitcomm.local/mimic
    // has an operation `new`, jellyfin.local one `post`, which shadowed the hook).
    let mut taken: BTreeSet<String> = crate::contract::progenitor_output::CLIENT_METHODS
        .iter()
        .map(|name| (*name).to_owned())
        .collect();
    let mut missing: Vec<(String, String)> = Vec::new();
    for (path, item) in document
        .get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        for (method, operation) in item.as_object().into_iter().flatten() {
            if !is_method(method) {
                continue;
            }
            match operation.get("operationId").and_then(Value::as_str) {
                // An id whose method an earlier operation's id already makes (`list` twice, or
                // `getFoo` after `get_foo`), or one of the client's own, is named anew, like a
                // missing one.
                Some(id) if taken.contains(&crate::contract::method_name(id)) => {
                    missing.push((path.clone(), method.clone()));
                }
                Some(id) => {
                    taken.insert(id.to_owned());
                    taken.insert(crate::contract::method_name(id));
                }
                None => missing.push((path.clone(), method.clone())),
            }
        }
    }
    let names = synthesise_ids(&missing, &taken);
    for ((path, method), name) in missing.iter().zip(names) {
        let pointer = push(&push("/paths", path), method);
        if let Some(operation) = document
            .pointer_mut(&pointer)
            .and_then(Value::as_object_mut)
        {
            let finding = match operation.get("operationId").and_then(Value::as_str) {
                Some(repeated) if is_client_method(repeated) => Finding::new(
                    FindingKind::Repaired,
                    &push(&pointer, "operationId"),
                    format!(
                        "`operationId` `{repeated}` would be the name of one of the client's own methods; named `{name}`"
                    ),
                ),
                Some(repeated) => Finding::new(
                    FindingKind::Defect,
                    &push(&pointer, "operationId"),
                    format!(
                        "`operationId` `{repeated}` is also an earlier operation's; named `{name}`"
                    ),
                ),
                None => Finding::new(
                    FindingKind::Repaired,
                    &pointer,
                    format!("no `operationId`; named `{name}`"),
                ),
            };
            operation.insert("operationId".into(), Value::String(name.clone()));
            findings.push(finding);
        }
    }
}

/// Whether operation id `id` makes the method name of one of the client's own methods.
fn is_client_method(id: &str) -> bool {
    crate::contract::progenitor_output::CLIENT_METHODS
        .contains(&crate::contract::method_name(id).as_str())
}

/// The names of `operations` (path, method), avoiding `taken`; see [`operation_ids`].
pub fn synthesise_ids(operations: &[(String, String)], taken: &BTreeSet<String>) -> Vec<String> {
    let forms: Vec<[String; 3]> = operations
        .iter()
        .map(|(path, method)| name_forms(path, method))
        .collect();
    let mut level = vec![0usize; operations.len()];
    // Each round widens every name that collides; three forms, so three rounds settle it.
    for _ in 0..3 {
        let mut count: BTreeMap<&str, usize> = BTreeMap::new();
        for (form, level) in forms.iter().zip(&level) {
            *count.entry(form[*level].as_str()).or_default() += 1;
        }
        let mut widened = false;
        for (index, form) in forms.iter().enumerate() {
            let name = form[level[index]].as_str();
            if (count[name] > 1 || taken.contains(name)) && level[index] < 2 {
                level[index] += 1;
                widened = true;
            }
        }
        if !widened {
            break;
        }
    }
    let mut used = taken.clone();
    forms
        .iter()
        .zip(&level)
        .map(|(form, level)| {
            let base = &form[*level];
            let mut name = base.clone();
            let mut counter = 2;
            while used.contains(&name) {
                name = format!("{base}_{counter}");
                counter += 1;
            }
            used.insert(name.clone());
            name
        })
        .collect()
}

/// The short, wide and widest names of one operation.
fn name_forms(path: &str, method: &str) -> [String; 3] {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let is_parameter = |segment: &str| segment.starts_with('{') && segment.ends_with('}');
    let mut fixed: Vec<String> = Vec::new();
    let mut parameters: Vec<String> = Vec::new();
    for (index, segment) in segments.iter().enumerate() {
        if is_parameter(segment) {
            parameters.push(snake(segment.trim_matches(|c| c == '{' || c == '}')));
            continue;
        }
        if fixed.is_empty() && parameters.is_empty() && is_prefix(segment) {
            continue;
        }
        let followed_by_parameter = segments
            .get(index + 1)
            .is_some_and(|next| is_parameter(next));
        let word = snake(segment);
        if word.is_empty() {
            continue;
        }
        fixed.push(if followed_by_parameter {
            singular(&word)
        } else {
            word
        });
    }
    let verb = snake(method);
    if fixed.is_empty() {
        fixed.push("root".into());
    }
    let short = match fixed.as_slice() {
        [only] => format!("{verb}_{only}"),
        [first, .., last] => format!("{verb}_{first}_{last}"),
        [] => unreachable!("a root segment was pushed"),
    };
    let wide = format!("{verb}_{}", fixed.join("_"));
    let widest = if parameters.is_empty() {
        format!("{wide}_root")
    } else {
        format!("{wide}_by_{}", parameters.join("_"))
    };
    [short, wide, widest]
}

/// A leading segment that says where the API lives rather than what it is about.
fn is_prefix(segment: &str) -> bool {
    segment.eq_ignore_ascii_case("api")
        || (segment.len() >= 2
            && segment.starts_with(['v', 'V'])
            && segment[1..].chars().all(|c| c.is_ascii_digit()))
}

/// The singular of an English plural noun, for the common regular forms; other words unchanged.
fn singular(word: &str) -> String {
    let (head, last) = match word.rsplit_once('_') {
        Some((head, last)) => (format!("{head}_"), last),
        None => (String::new(), word),
    };
    let one = if let Some(stem) = last.strip_suffix("ies").filter(|s| s.len() > 1) {
        format!("{stem}y")
    } else if ["sses", "xes", "ches", "shes", "zes"]
        .iter()
        .any(|ending| last.ends_with(ending))
    {
        last[..last.len() - 2].to_owned()
    } else if last.len() > 3
        && last.ends_with('s')
        && !["ss", "us", "is"]
            .iter()
            .any(|ending| last.ends_with(ending))
    {
        last[..last.len() - 1].to_owned()
    } else {
        last.to_owned()
    };
    format!("{head}{one}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(paths: &[(&str, &str)]) -> Vec<String> {
        let operations: Vec<(String, String)> = paths
            .iter()
            .map(|(method, path)| ((*path).to_owned(), (*method).to_owned()))
            .collect();
        synthesise_ids(&operations, &BTreeSet::new())
    }

    #[test]
    fn operation_ids_read_like_their_resource() {
        let table = [
            (
                "get",
                "/api/models/{namespace}/{repo}/tree/{rev}",
                "get_model_tree",
            ),
            ("get", "/api/models", "get_models"),
            ("post", "/api/repos/create", "post_repos_create"),
            (
                "delete",
                "/api/spaces/{namespace}/{repo}/secrets/{key}",
                "delete_space_secret",
            ),
            (
                "get",
                "/api/datasets/{namespace}/{repo}/parquet",
                "get_dataset_parquet",
            ),
            ("get", "/api/whoami-v2", "get_whoami_v2"),
            ("get", "/", "get_root"),
            ("get", "/v2/categories/{id}", "get_category"),
            (
                "put",
                "/api/repositories/{id}/branches/{branch}",
                "put_repository_branch",
            ),
        ];
        let paths: Vec<(&str, &str)> = table.iter().map(|(m, p, _)| (*m, *p)).collect();
        let expected: Vec<&str> = table.iter().map(|(_, _, name)| *name).collect();
        assert_eq!(ids(&paths), expected);
    }

    #[test]
    fn an_operation_named_like_one_of_the_client_s_methods_is_named_anew() {
        // gambitcomm.local/mimic: `POST /mimic/new` is `operationId: new`.
        let mut document = serde_json::json!({"paths": {"/mimic/new": {"post": {
            "operationId": "new", "responses": {}}}}});
        let mut findings = Vec::new();
        operation_ids(&mut document, &mut findings);
        assert_eq!(
            document["paths"]["/mimic/new"]["post"]["operationId"],
            "post_mimic_new"
        );
        assert_eq!(findings.len(), 1, "{findings:?}");
        assert_eq!(findings[0].kind, FindingKind::Repaired);
    }

    #[test]
    fn collisions_widen_only_the_colliding_names() {
        let names = ids(&[
            ("get", "/api/models/{ns}/{repo}/discussions/{num}/comment"),
            ("get", "/api/models/{ns}/{repo}/comment"),
            ("get", "/api/models/{ns}/{repo}/tree/{rev}"),
            ("get", "/api/models/{ns}/{repo}/tree/{rev}/{path}"),
            ("get", "/api/models/{ns}/tree"),
        ]);
        assert_eq!(
            names,
            [
                "get_model_discussion_comment",
                "get_model_comment",
                "get_model_tree_by_ns_repo_rev",
                "get_model_tree_by_ns_repo_rev_path",
                "get_model_tree_by_ns",
            ]
        );
        let deduplicated: BTreeSet<&String> = names.iter().collect();
        assert_eq!(deduplicated.len(), names.len());
    }

    #[test]
    fn declared_ids_are_never_reused_and_identical_paths_get_a_counter() {
        let taken = BTreeSet::from(["get_models".to_owned()]);
        let operations = vec![
            ("/api/models".to_owned(), "get".to_owned()),
            ("/models".to_owned(), "get".to_owned()),
        ];
        assert_eq!(
            synthesise_ids(&operations, &taken),
            ["get_models_root", "get_models_root_2"]
        );
    }

    #[test]
    fn singulars() {
        for (plural, one) in [
            ("models", "model"),
            ("repositories", "repository"),
            ("branches", "branch"),
            ("status", "status"),
            ("analysis", "analysis"),
            ("access", "access"),
            ("tree", "tree"),
            ("user_keys", "user_key"),
        ] {
            assert_eq!(singular(plural), one);
        }
    }
}
