//! Decoding unions.
//!
//! A tagged union (a `oneOf` with a `discriminator`) decodes in one pass: the generated
//! `tagged_union!` reads the tag with [`read_tag`], then decodes the variant it names from the
//! rest of the object with [`variant`]. Entries that come before the tag are buffered as JSON
//! values and replayed first, so any key order works; with the tag first, as servers usually
//! write it, nothing is buffered.
//!
//! A union nothing tags (typify's untagged enum) decodes with [`first_fit`]: the value is read
//! once, then its members are tried in order. For a `oneOf`, strict decoding also tries the
//! members after the first that fits, and refuses a value two of them take.

use std::borrow::Cow;

use serde::de::{DeserializeSeed, Error as _, MapAccess};
use serde_json::Value;

/// The entries of an object read before its tag.
pub type Entries = Vec<(String, Value)>;

/// The tag's value (borrowed from the input where it can be) and the entries that came before
/// it.
pub fn read_tag<'de, M: MapAccess<'de>>(
    map: &mut M,
    tag: &'static str,
) -> Result<(Cow<'de, str>, Entries), M::Error> {
    let mut before = Entries::new();
    loop {
        match map.next_key_seed(KeySeed(tag))? {
            Some(Key::Tag) => return Ok((map.next_value_seed(TagValue)?, before)),
            Some(Key::Other(key)) => {
                let value = map.next_value::<Value>()?;
                before.push((key, value));
            }
            None => return Err(M::Error::missing_field(tag)),
        }
    }
}

/// A key of a tagged object, read while looking for the tag.
enum Key {
    Tag,
    /// Any other key, kept to be replayed.
    Other(String),
}

/// Reads a key, allocating only for one that is not the tag (with the tag first, as servers
/// usually write it, none).
struct KeySeed(&'static str);

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Key, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de> serde::de::Visitor<'de> for KeySeed {
    type Value = Key;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("an object key")
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Key, E> {
        Ok(if key == self.0 {
            Key::Tag
        } else {
            Key::Other(key.to_owned())
        })
    }

    fn visit_string<E: serde::de::Error>(self, key: String) -> Result<Key, E> {
        Ok(if key == self.0 {
            Key::Tag
        } else {
            Key::Other(key)
        })
    }
}

/// Reads the tag's value without allocating when the input lends it.
struct TagValue;

impl<'de> DeserializeSeed<'de> for TagValue {
    type Value = Cow<'de, str>;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Cow<'de, str>, D::Error> {
        deserializer.deserialize_str(self)
    }
}

impl<'de> serde::de::Visitor<'de> for TagValue {
    type Value = Cow<'de, str>;

    fn expecting(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.write_str("a string")
    }

    fn visit_borrowed_str<E: serde::de::Error>(self, value: &'de str) -> Result<Self::Value, E> {
        Ok(Cow::Borrowed(value))
    }

    fn visit_str<E: serde::de::Error>(self, value: &str) -> Result<Self::Value, E> {
        Ok(Cow::Owned(value.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, value: String) -> Result<Self::Value, E> {
        Ok(Cow::Owned(value))
    }
}

/// The variant, decoded from the entries before the tag and the rest of `map`.
///
/// With the tag first, as servers write it, nothing is replayed and the variant reads `map`
/// itself: its struct then decodes through the same code as every nested object, instead of
/// through a copy of that code behind the replaying wrapper, which costs a check per entry and,
/// for a large union, enough extra code to crowd the instruction cache.
pub fn variant<'de, T: serde::Deserialize<'de>, M: MapAccess<'de>>(
    before: Entries,
    map: M,
) -> Result<T, M::Error> {
    if before.is_empty() {
        return T::deserialize(serde::de::value::MapAccessDeserializer::new(map));
    }
    T::deserialize(serde::de::value::MapAccessDeserializer::new(Replay {
        before: before.into_iter(),
        pending: None,
        live: map,
    }))
}

/// The object of an unknown tag, as sent, tag included; a key given twice is refused.
pub fn unknown<'de, M: MapAccess<'de>>(
    before: Entries,
    mut map: M,
    tag: &str,
    value: &str,
) -> Result<serde_json::Map<String, Value>, M::Error> {
    let mut object: serde_json::Map<String, Value> = before.into_iter().collect();
    object.insert(tag.to_owned(), Value::String(value.to_owned()));
    while let Some((key, value)) = map.next_entry::<String, Value>()? {
        if object.contains_key(&key) {
            return Err(M::Error::custom(format_args!("duplicate field `{key}`")));
        }
        object.insert(key, value);
    }
    Ok(object)
}

/// Whether a first-fit union admits a value several of its members take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overlap {
    /// An `anyOf`, or a `oneOf` whose members no value can match two of: the first member that
    /// fits decodes it, and the rest are not tried.
    AnyOf,
    /// A `oneOf`: exactly one member may take the value. Strict decoding tries every member
    /// and refuses a value two take; tolerant decoding keeps the first that fits, as a newer
    /// server's value may fit a member it did not fit before.
    OneOf,
}

/// One member of a first-fit union: its variant's name, for messages, and its decoder, which
/// returns the union's value when the member takes the JSON value.
pub type Member<T> = (&'static str, fn(&Value) -> Result<T, serde_json::Error>);

/// Decodes `value` as the first of `members` that takes it (a unit variant takes `null`), in
/// their order, which is the schema's. With [`Overlap::OneOf`] and strict decoding (see
/// [`super::decoding`]), a value a second member also takes is refused, naming both.
///
/// When no member takes it, the error names the union and says why each member refused it.
pub fn first_fit<T, E: serde::de::Error>(
    union: &'static str,
    overlap: Overlap,
    value: &Value,
    members: &[Member<T>],
) -> Result<T, E> {
    let exclusive = overlap == Overlap::OneOf && super::decoding::is_strict();
    let mut refusals = Vec::new();
    let mut found: Option<(&'static str, T)> = None;
    for (variant, decode) in members {
        if found.is_some() && !exclusive {
            break;
        }
        match (decode(value), &found) {
            (Ok(decoded), None) => found = Some((variant, decoded)),
            (Ok(_), Some((first, _))) => {
                return Err(E::custom(format_args!(
                    "must match exactly one member of `oneOf` {union}; matches {first} and {variant}"
                )));
            }
            (Err(error), None) => refusals.push((variant, error)),
            (Err(_), Some(_)) => {}
        }
    }
    match found {
        Some((_, decoded)) => Ok(decoded),
        None => Err(E::custom(format_args!(
            "data did not match any variant of untagged enum {union} ({})",
            refusals
                .iter()
                .map(|(variant, error)| format!("{variant}: {error}"))
                .collect::<Vec<_>>()
                .join("; ")
        ))),
    }
}

/// The member decoder of a unit variant: it takes `null` only.
pub fn null_member<T>(value: &Value, unit: T) -> Result<T, serde_json::Error> {
    if value.is_null() {
        Ok(unit)
    } else {
        Err(serde::de::Error::custom(format_args!(
            "must be null; got {value}"
        )))
    }
}

/// The buffered entries, then the live map.
struct Replay<M> {
    before: std::vec::IntoIter<(String, Value)>,
    pending: Option<Value>,
    live: M,
}

impl<'de, M: MapAccess<'de>> MapAccess<'de> for Replay<M> {
    type Error = M::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, M::Error> {
        match self.before.next() {
            Some((key, value)) => {
                self.pending = Some(value);
                seed.deserialize(serde::de::value::StringDeserializer::<M::Error>::new(key))
                    .map(Some)
            }
            None => self.live.next_key_seed(seed),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, M::Error> {
        match self.pending.take() {
            Some(value) => seed.deserialize(value).map_err(M::Error::custom),
            None => self.live.next_value_seed(seed),
        }
    }
}

/// `first_fit_union!(OneOf Name { Variant(Type), Other(Type, From), Unit, ... })`: the
/// `Deserialize` of a generated first-fit union, its members tried in order on the value read
/// once ([`first_fit`], `AnyOf` or `OneOf` its [`Overlap`]), and, for each member marked `From`,
/// the conversion of its type into the union, as typify writes it. The invoking module imports
/// this module as `unions`.
#[doc(hidden)]
#[macro_export]
macro_rules! first_fit_union {
    ($overlap:ident $name:ident { $($variant:ident $(($inner:ty $(, $from:ident)?))?),* }) => {
        $($($(
            impl ::std::convert::$from<$inner> for $name {
                fn from(value: $inner) -> Self {
                    Self::$variant(value)
                }
            }
        )?)?)*
        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(
                deserializer: D,
            ) -> ::std::result::Result<Self, D::Error> {
                let value = <::serde_json::Value as ::serde::Deserialize>::deserialize(deserializer)?;
                unions::first_fit(
                    ::std::stringify!($name),
                    unions::Overlap::$overlap,
                    &value,
                    &[$($crate::first_fit_union!(@member $name $variant $(($inner))?)),*],
                )
            }
        }
    };
    (@member $name:ident $variant:ident ($inner:ty)) => {
        (::std::stringify!($variant), |value| <$inner as ::serde::Deserialize>::deserialize(value).map($name::$variant))
    };
    (@member $name:ident $variant:ident) => {
        (::std::stringify!($variant), |value| unions::null_member(value, $name::$variant))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A union of one variant, `{"kind": "circle", "r": number}`, decoded as the generated code
    /// does.
    #[derive(Debug, PartialEq, serde::Deserialize)]
    struct Circle {
        r: f64,
    }

    #[derive(Debug, PartialEq)]
    enum Shape {
        Circle(Circle),
        Unknown(serde_json::Map<String, Value>),
    }

    impl<'de> serde::Deserialize<'de> for Shape {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct Visitor;
            impl<'de> serde::de::Visitor<'de> for Visitor {
                type Value = Shape;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("a shape")
                }
                fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<Shape, M::Error> {
                    let (tag, before) = read_tag(&mut map, "kind")?;
                    match &*tag {
                        "circle" => variant(before, map).map(Shape::Circle),
                        other => unknown(before, map, "kind", other).map(Shape::Unknown),
                    }
                }
            }
            deserializer.deserialize_map(Visitor)
        }
    }

    /// `oneOf: [{type: integer}, {type: number, maximum: 10}]` as a first-fit union: `3` fits
    /// both members, `3.5` only the second, `20` only the first.
    #[derive(Debug, PartialEq)]
    enum Amount {
        Whole(i64),
        Small(f64),
        Nothing,
    }

    fn decode_amount(text: &str, overlap: Overlap) -> Result<Amount, serde_json::Error> {
        let members: [Member<Amount>; 3] = [
            ("Whole", |value| i64::deserialize(value).map(Amount::Whole)),
            ("Small", |value| {
                let small = f64::deserialize(value)?;
                if small <= 10.0 {
                    Ok(Amount::Small(small))
                } else {
                    Err(serde::de::Error::custom("must be at most 10"))
                }
            }),
            ("Nothing", |value| null_member(value, Amount::Nothing)),
        ];
        let value: Value = serde_json::from_str(text)?;
        first_fit("Amount", overlap, &value, &members)
    }

    use serde::Deserialize as _;

    #[test]
    fn a_first_fit_union_takes_the_first_member_that_fits() {
        for overlap in [Overlap::AnyOf, Overlap::OneOf] {
            assert_eq!(decode_amount("3", overlap).unwrap(), Amount::Whole(3));
            assert_eq!(decode_amount("3.5", overlap).unwrap(), Amount::Small(3.5));
            assert_eq!(decode_amount("20", overlap).unwrap(), Amount::Whole(20));
            assert_eq!(decode_amount("null", overlap).unwrap(), Amount::Nothing);
            let none = decode_amount("20.5", overlap).unwrap_err().to_string();
            assert!(
                none.starts_with("data did not match any variant of untagged enum Amount (Whole: invalid type: floating point `20.5`, expected i64; Small: must be at most 10; Nothing: must be null; got 20.5)"),
                "{none}"
            );
        }
    }

    #[test]
    fn a_strict_one_of_refuses_a_value_two_members_take() {
        let several = crate::decoding::strict(|| decode_amount("3", Overlap::OneOf))
            .unwrap_err()
            .to_string();
        assert_eq!(
            several,
            "must match exactly one member of `oneOf` Amount; matches Whole and Small"
        );
        // An `anyOf` admits it, and so does tolerant decoding of a `oneOf`.
        let any_of = crate::decoding::strict(|| decode_amount("3", Overlap::AnyOf));
        assert_eq!(any_of.unwrap(), Amount::Whole(3));
        assert_eq!(
            decode_amount("3", Overlap::OneOf).unwrap(),
            Amount::Whole(3)
        );
        // One member only: strict decoding takes it.
        let only = crate::decoding::strict(|| decode_amount("3.5", Overlap::OneOf));
        assert_eq!(only.unwrap(), Amount::Small(3.5));
    }

    #[test]
    fn the_tag_may_come_anywhere() {
        let first: Shape = serde_json::from_str(r#"{"kind":"circle","r":1.5}"#).unwrap();
        let last: Shape = serde_json::from_str(r#"{"r":1.5,"kind":"circle"}"#).unwrap();
        assert_eq!(first, Shape::Circle(Circle { r: 1.5 }));
        assert_eq!(first, last);
    }

    #[test]
    fn an_unknown_tag_keeps_the_object_and_a_missing_one_is_refused() {
        let kept: Shape = serde_json::from_str(r#"{"side":2,"kind":"square"}"#).unwrap();
        let Shape::Unknown(object) = kept else {
            panic!("not unknown")
        };
        assert_eq!(
            Value::Object(object),
            serde_json::json!({"side": 2, "kind": "square"})
        );
        let twice = serde_json::from_str::<Shape>(r#"{"kind":"square","a":1,"a":2}"#).unwrap_err();
        assert!(twice.to_string().contains("duplicate field `a`"), "{twice}");
        let missing = serde_json::from_str::<Shape>(r#"{"r":1}"#).unwrap_err();
        assert!(
            missing.to_string().contains("missing field `kind`"),
            "{missing}"
        );
    }
}
