//! Generated types read and write the JSON shapes their schemas describe, and no other. serde's
//! derives, which the generated types no longer use, also read a struct from an array of its
//! fields in order and a string enum's value from a one-entry object (`{"org": null}`); JSON
//! Schema refuses both, and so do the generated types.

use hub_api::types::{WatchSettingsRequest, WatchTarget, WatchTargetType};
use serde_json::json;

const ID: &str = "6729a1f0c3d4e5f6a7b8c902";

#[test]
fn a_struct_is_read_from_an_object_only() {
    let target: WatchTarget = serde_json::from_value(json!({"id": ID, "type": "org"})).unwrap();
    assert_eq!(target.id, ID);
    assert_eq!(target.type_, WatchTargetType::Org);

    let error = serde_json::from_value::<WatchTarget>(json!([ID, "org"])).unwrap_err();
    assert!(
        error.to_string().contains("expected struct WatchTarget"),
        "{error}"
    );
}

#[test]
fn a_string_enum_is_read_from_a_string_only() {
    let kind: WatchTargetType = serde_json::from_value(json!("repo")).unwrap();
    assert_eq!(kind, WatchTargetType::Repo);

    for shape in [json!({"org": null}), json!(0), json!(["org"])] {
        let error = serde_json::from_value::<WatchTargetType>(shape.clone()).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("expected a `WatchTargetType` string"),
            "{shape}: {error}"
        );
    }
    let error = serde_json::from_value::<WatchTargetType>(json!("team")).unwrap_err();
    assert_eq!(
        error.to_string(),
        "unknown variant `team`, expected one of `org`, `user`, `repo`"
    );
}

#[test]
fn a_struct_is_written_with_its_keys_and_without_what_it_leaves_out() {
    let empty = WatchSettingsRequest {
        add: Vec::new(),
        delete: Vec::new(),
    };
    assert_eq!(serde_json::to_value(&empty).unwrap(), json!({}));

    let add = WatchSettingsRequest {
        add: vec![WatchTarget {
            id: ID.to_owned(),
            type_: WatchTargetType::User,
        }],
        delete: Vec::new(),
    };
    let written = serde_json::to_string(&add).unwrap();
    assert_eq!(
        written,
        format!(r#"{{"add":[{{"id":"{ID}","type":"user"}}]}}"#)
    );
    let read: WatchSettingsRequest = serde_json::from_str(&written).unwrap();
    assert_eq!(read, add);
}
