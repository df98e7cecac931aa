//! The newtypes over one value (bounded integers, validated and secret strings, typify's
//! checked strings) are aliases of generic types, each told apart by its marker. They keep
//! what the per-type newtypes they replaced had: `Debug` names the alias, secrets print
//! redacted, the messages and conversions are the same, and each alias is a type of its own.

use std::collections::BTreeSet;

use hub_api::types::{
    Credential, GetStorageAccessTokenNamespace, HexId, Port, TimeoutSeconds, Timestamp,
};

const ID: &str = "6729a1f0c3d4e5f6a7b8c902";

#[test]
fn a_bounded_integer_checks_converts_and_prints_as_its_alias() {
    let port = Port::new(8080).unwrap();
    assert_eq!(format!("{port:?}"), "Port(8080)");
    assert_eq!(port.to_string(), "8080");
    assert_eq!(u64::from(port), 8080);
    assert_eq!((Port::MIN, Port::MAX), (1, 65535));
    assert_eq!(
        Port::new(0).unwrap_err().to_string(),
        "must be at least 1; got 0"
    );
    assert_eq!(
        Port::try_from(70_000_i64).unwrap_err().to_string(),
        "must be at most 65535; got 70000"
    );
    assert_eq!("443".parse::<Port>().unwrap().get(), 443);
    // JSON Schema counts 3.0 as an integer, and no other fraction.
    assert_eq!(serde_json::from_str::<Port>("3.0").unwrap().get(), 3);
    assert!(serde_json::from_str::<Port>("3.5").is_err());
    assert_eq!(serde_json::to_string(&port).unwrap(), "8080");
    let ordered: BTreeSet<Port> = [443, 80].map(|p| Port::new(p).unwrap()).into();
    assert_eq!(ordered.first().map(|p| p.get()), Some(80));
    assert_eq!(
        format!("{:?}", TimeoutSeconds::new(5).unwrap()),
        "TimeoutSeconds(5)"
    );
}

#[test]
fn a_validated_string_checks_converts_and_prints_as_its_alias() {
    let id = HexId::new(ID).unwrap();
    assert_eq!(format!("{id:?}"), format!("HexId({ID:?})"));
    assert_eq!(id.to_string(), ID);
    assert_eq!(String::from(id.clone()), ID);
    assert_eq!(
        HexId::try_from("nope").unwrap_err().to_string(),
        r#"must match ^[0-9a-fA-F]{24}$; got "nope""#
    );
    let decoded: HexId = serde_json::from_value(serde_json::json!(ID)).unwrap();
    assert_eq!(decoded, id);

    let at = Timestamp::new("2026-11-25T10:00:00.5Z").unwrap();
    assert_eq!(at.to_datetime().timestamp(), 1_795_600_800);
    assert_eq!(at.as_str(), "2026-11-25T10:00:00.5Z");
}

#[test]
fn a_secret_string_never_shows_its_value() {
    let credential = Credential::new("hf_very_secret_value").unwrap();
    assert_eq!(format!("{credential:?}"), "Credential([redacted])");
    assert_eq!(credential.as_str(), "hf_very_secret_value");
    let error = Credential::new("").unwrap_err().to_string();
    assert!(!error.contains("hf_"), "{error}");
}

#[test]
fn a_checked_string_keeps_typify_s_conversions_and_messages() {
    let namespace = GetStorageAccessTokenNamespace::try_from("my-org").unwrap();
    assert_eq!(
        format!("{namespace:?}"),
        r#"GetStorageAccessTokenNamespace("my-org")"#
    );
    assert_eq!(namespace.as_str(), "my-org");
    assert_eq!(String::from(namespace), "my-org");
    assert_eq!(
        GetStorageAccessTokenNamespace::try_from("")
            .unwrap_err()
            .to_string(),
        "shorter than 1 characters"
    );
    let error = serde_json::from_str::<GetStorageAccessTokenNamespace>(r#""""#).unwrap_err();
    assert!(
        error.to_string().contains("shorter than 1 characters"),
        "{error}"
    );
}

/// Two aliases over the same generic type are different types: a function that takes one
/// does not take the other (this is a compile-time property; the test states it in code).
#[test]
fn aliases_of_one_generic_type_are_distinct_types() {
    fn type_id<T: 'static>(_: &T) -> std::any::TypeId {
        std::any::TypeId::of::<T>()
    }
    let port = Port::new(1).unwrap();
    let timeout = TimeoutSeconds::new(1).unwrap();
    assert_ne!(type_id(&port), type_id(&timeout));
}
