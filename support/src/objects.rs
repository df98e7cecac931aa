//! The one decoder and writer of every struct a generated crate decodes: the generated
//! `decode_object!` writes, per struct, only what differs ([`DecodeObject`]: its slots, key
//! lookup, reads and construction); [`ObjectVisitor`] runs the loop for all of them, and
//! [`ObjectWriter`] writes them back as serde's derive would.
//!
//! An open object keeps the properties its schema does not list in [`UnknownFields`], each as
//! the JSON text it arrived as ([`RawJson`]), decoded in one pass: serde's `flatten` would
//! buffer every entry and decode it twice.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{DeserializeSeed, Error as _, IgnoredAny, MapAccess, Visitor};
use serde::ser::{SerializeMap, SerializeStruct};

use super::decoding::is_strict;

/// What `decode_object!` writes for each struct: its slots, key lookup, reads and
/// construction. [`ObjectVisitor`] runs the loop for every struct alike.
pub trait DecodeObject: Sized {
    /// One variant per known key.
    type Field;
    /// One `Option` per known key, `None` until the key is read.
    type Slots;
    /// What a decoding error says was expected.
    const EXPECTING: &'static str;
    /// The known keys, for the "unknown field" error.
    const FIELDS: &'static [&'static str];
    /// What a key the schema does not list does.
    const UNKNOWN: UnknownKeys;

    /// Every slot empty.
    fn slots() -> Self::Slots;

    /// The known key `key` names.
    fn field(key: &str) -> Option<Self::Field>;

    /// Reads the value of `field` into its slot, refusing a key given twice.
    fn read<'de, A: MapAccess<'de>>(
        slots: &mut Self::Slots,
        field: Self::Field,
        map: &mut A,
    ) -> Result<(), A::Error>;

    /// The struct, once every key is read: a missing required key is refused, a missing
    /// optional one takes its default.
    fn finish<E: serde::de::Error>(slots: Self::Slots, extra: UnknownFields) -> Result<Self, E>;
}

/// What an object does with a key its schema does not list.
pub enum UnknownKeys {
    /// An open object keeps it in `extra`.
    Keep,
    /// A closed object that can come from the server refuses it under strict decoding and
    /// skips it otherwise (a newer server may add properties).
    Tolerant,
    /// A closed object only requests use refuses it.
    Refused,
    /// An object whose schema says nothing of other keys skips it.
    Skipped,
}

/// The properties of an open object that its schema does not list, in the order they arrived,
/// each kept as the JSON text it arrived as.
pub type UnknownFields = indexmap::IndexMap<String, RawJson>;

/// The one `Visitor` of every struct `decode_object!` decodes.
pub struct ObjectVisitor<T>(pub PhantomData<T>);

impl<'de, T: DecodeObject> Visitor<'de> for ObjectVisitor<T> {
    type Value = T;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(T::EXPECTING)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<T, A::Error> {
        let mut slots = T::slots();
        let mut extra = UnknownFields::new();
        while let Some(key) = map.next_key_seed(OpenKeySeed::<T>(PhantomData))? {
            match key {
                OpenKey::Known(field) => T::read(&mut slots, field, &mut map)?,
                OpenKey::Unknown(key) => match T::UNKNOWN {
                    UnknownKeys::Keep => {
                        // Keeping either of two values would drop the other.
                        if extra.contains_key(&key) {
                            return Err(A::Error::custom(format_args!("duplicate field `{key}`")));
                        }
                        let value = map.next_value()?;
                        extra.insert(key, value);
                    }
                    UnknownKeys::Tolerant if !is_strict() => {
                        map.next_value::<IgnoredAny>()?;
                    }
                    UnknownKeys::Skipped => {
                        map.next_value::<IgnoredAny>()?;
                    }
                    UnknownKeys::Tolerant | UnknownKeys::Refused => {
                        return Err(A::Error::unknown_field(&key, T::FIELDS));
                    }
                },
            }
        }
        T::finish(slots, extra)
    }
}

/// A key of an object: one of its properties, or an unknown one.
enum OpenKey<F> {
    Known(F),
    Unknown(String),
}

/// Decodes an object's key with the struct's own `field` lookup (called directly, so it is
/// inlined into the key's decoding), allocating only for unknown keys.
struct OpenKeySeed<T>(PhantomData<T>);

impl<'de, T: DecodeObject> DeserializeSeed<'de> for OpenKeySeed<T> {
    type Value = OpenKey<T::Field>;

    fn deserialize<D: serde::Deserializer<'de>>(
        self,
        deserializer: D,
    ) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de, T: DecodeObject> Visitor<'de> for OpenKeySeed<T> {
    type Value = OpenKey<T::Field>;

    fn expecting(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str("an object key")
    }

    fn visit_str<E: serde::de::Error>(self, key: &str) -> Result<Self::Value, E> {
        Ok(match T::field(key) {
            Some(field) => OpenKey::Known(field),
            None => OpenKey::Unknown(key.to_owned()),
        })
    }

    fn visit_string<E: serde::de::Error>(self, key: String) -> Result<Self::Value, E> {
        Ok(match T::field(&key) {
            Some(field) => OpenKey::Known(field),
            None => OpenKey::Unknown(key),
        })
    }
}

/// Reads a known key's value into its slot; a key given twice is refused, as serde's derive
/// does.
pub fn read_value<'de, A, T>(
    map: &mut A,
    slot: &mut Option<T>,
    key: &'static str,
) -> Result<(), A::Error>
where
    A: MapAccess<'de>,
    T: serde::Deserialize<'de>,
{
    vacant::<A::Error, _>(slot, key)?;
    *slot = Some(map.next_value()?);
    Ok(())
}

/// [`read_value`] for an optional field that is not nullable: a present value, `null`
/// included, must decode as the inner type.
pub fn read_present<'de, A, T>(
    map: &mut A,
    slot: &mut Option<Option<T>>,
    key: &'static str,
) -> Result<(), A::Error>
where
    A: MapAccess<'de>,
    T: serde::Deserialize<'de>,
{
    vacant::<A::Error, _>(slot, key)?;
    *slot = Some(Some(map.next_value()?));
    Ok(())
}

/// [`read_value`] for a plain integer field (`i64`, the type of its width format, or an
/// `Option` of one when the property is nullable): any JSON number without a fraction, `3.0`
/// included, which JSON Schema counts as the integer 3 and serde's own integers refuse.
pub fn read_integer<'de, A, T>(
    map: &mut A,
    slot: &mut Option<T>,
    key: &'static str,
) -> Result<(), A::Error>
where
    A: MapAccess<'de>,
    T: IntegerField,
{
    vacant::<A::Error, _>(slot, key)?;
    *slot = Some(T::read(map)?);
    Ok(())
}

/// [`read_present`] for a plain integer field: a present value must be an integer, or a list
/// of them ([`read_integer`]), `null` refused.
pub fn read_present_integer<'de, A, T>(
    map: &mut A,
    slot: &mut Option<Option<T>>,
    key: &'static str,
) -> Result<(), A::Error>
where
    A: MapAccess<'de>,
    T: IntegerField,
{
    vacant::<A::Error, _>(slot, key)?;
    *slot = Some(Some(T::read(map)?));
    Ok(())
}

/// A Rust integer type a plain integer field holds.
pub trait WholeNumber: Sized + TryFrom<i128> {
    /// Its name, for the error about a value out of its range.
    const NAME: &'static str;
}

/// What [`read_integer`] reads: a [`WholeNumber`], a `Vec` of them, or an `Option` of either
/// (`null` is `None`).
pub trait IntegerField: Sized {
    /// Reads the next value of `map` as this type.
    fn read<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error>;
}

macro_rules! whole_numbers {
    ($($integer:ty),*) => {$(
        impl WholeNumber for $integer {
            const NAME: &'static str = stringify!($integer);
        }
        impl IntegerField for $integer {
            fn read<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error> {
                Ok(map.next_value::<Whole<$integer>>()?.0)
            }
        }
        impl IntegerField for Option<$integer> {
            fn read<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error> {
                Ok(map.next_value::<Option<Whole<$integer>>>()?.map(|whole| whole.0))
            }
        }
    )*};
}

whole_numbers!(i8, i16, i32, i64, u8, u16, u32, u64);

impl<T: WholeNumber> IntegerField for Vec<T> {
    fn read<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error> {
        Ok(wholes(map.next_value()?))
    }
}

impl<T: WholeNumber> IntegerField for Option<Vec<T>> {
    fn read<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Self, A::Error> {
        Ok(map.next_value::<Option<Vec<Whole<T>>>>()?.map(wholes))
    }
}

fn wholes<T>(items: Vec<Whole<T>>) -> Vec<T> {
    items.into_iter().map(|whole| whole.0).collect()
}

/// An integer read from any JSON number without a fraction.
#[derive(Debug)]
struct Whole<T>(T);

impl<'de, T: WholeNumber> serde::Deserialize<'de> for Whole<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(WholeVisitor(PhantomData))
    }
}

struct WholeVisitor<T>(PhantomData<fn() -> T>);

impl<T: WholeNumber> WholeVisitor<T> {
    fn fit<E: serde::de::Error>(value: i128) -> Result<Whole<T>, E> {
        T::try_from(value)
            .map(Whole)
            .map_err(|_| E::custom(format!("{value} is out of range for {}", T::NAME)))
    }
}

impl<T: WholeNumber> Visitor<'_> for WholeVisitor<T> {
    type Value = Whole<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "an integer ({})", T::NAME)
    }

    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Whole<T>, E> {
        Self::fit(i128::from(value))
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Whole<T>, E> {
        Self::fit(i128::from(value))
    }

    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<Whole<T>, E> {
        // Beyond ±2^63 no 64-bit integer holds it anyway; `as` saturates there.
        if value.is_finite() && value.fract() == 0.0 {
            Self::fit(value as i128)
        } else {
            Err(E::invalid_type(serde::de::Unexpected::Float(value), &self))
        }
    }
}

/// Refuses a known key given twice, as serde's derive does.
fn vacant<E: serde::de::Error, T>(slot: &Option<T>, key: &'static str) -> Result<(), E> {
    match slot {
        Some(_) => Err(E::duplicate_field(key)),
        None => Ok(()),
    }
}

/// Writes the properties of every struct `decode_object!` serializes, in field order, as
/// serde's derive does: a struct with its name and the number of properties it writes, an open
/// object (whose unknown properties follow) as a map. The first error is kept and returned by
/// [`end`](Self::end), so a struct's own code has no `?` per field.
pub struct ObjectWriter<S: serde::Serializer> {
    sink: ObjectSink<S>,
    error: Option<S::Error>,
}

enum ObjectSink<S: serde::Serializer> {
    Struct(S::SerializeStruct),
    Map(S::SerializeMap),
}

impl<S: serde::Serializer> ObjectWriter<S> {
    /// Starts the struct `name` with `len` properties, or, when `open`, a map.
    pub fn new(
        serializer: S,
        name: &'static str,
        len: usize,
        open: bool,
    ) -> Result<Self, S::Error> {
        let sink = if open {
            ObjectSink::Map(serializer.serialize_map(None)?)
        } else {
            ObjectSink::Struct(serializer.serialize_struct(name, len)?)
        };
        Ok(Self { sink, error: None })
    }

    fn keep(&mut self, written: Result<(), S::Error>) {
        if let Err(error) = written {
            self.error.get_or_insert(error);
        }
    }

    /// One known property.
    pub fn field<T: ?Sized + serde::Serialize>(&mut self, key: &'static str, value: &T) {
        if self.error.is_some() {
            return;
        }
        let written = match &mut self.sink {
            ObjectSink::Struct(fields) => fields.serialize_field(key, value),
            ObjectSink::Map(entries) => entries.serialize_entry(key, value),
        };
        self.keep(written);
    }

    /// An open object's unknown properties, after its known ones.
    pub fn extra(&mut self, extra: &UnknownFields) {
        for (key, value) in extra {
            if self.error.is_some() {
                return;
            }
            let written = match &mut self.sink {
                ObjectSink::Map(entries) => entries.serialize_entry(key, value),
                ObjectSink::Struct(_) => Err(<S::Error as serde::ser::Error>::custom(
                    "an open object is written as a map",
                )),
            };
            self.keep(written);
        }
    }

    /// The object, or the first error of any property.
    pub fn end(self) -> Result<S::Ok, S::Error> {
        match (self.error, self.sink) {
            (Some(error), _) => Err(error),
            (None, ObjectSink::Struct(fields)) => fields.end(),
            (None, ObjectSink::Map(entries)) => entries.end(),
        }
    }
}

/// A JSON value kept exactly as it was received: an unknown property passes through untouched,
/// numbers beyond `f64` and their spelling included. Two values are equal when they are the
/// same JSON (compared as `serde_json::Value` where both fit one, as text otherwise).
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct RawJson(Box<serde_json::value::RawValue>);

impl RawJson {
    /// The JSON text, as received.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// Decodes the text into `T`; a number beyond `f64` fails for `serde_json::Value`.
    pub fn decode<T: serde::de::DeserializeOwned>(&self) -> Result<T, serde_json::Error> {
        serde_json::from_str(self.0.get())
    }

    /// The value as a `serde_json::Value`, when it fits one.
    pub fn to_value(&self) -> Result<serde_json::Value, serde_json::Error> {
        self.decode()
    }
}

impl fmt::Display for RawJson {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(self.0.get())
    }
}

impl PartialEq for RawJson {
    fn eq(&self, other: &Self) -> bool {
        match (self.to_value(), other.to_value()) {
            (Ok(left), Ok(right)) => left == right,
            _ => self.0.get() == other.0.get(),
        }
    }
}

impl PartialEq<serde_json::Value> for RawJson {
    fn eq(&self, other: &serde_json::Value) -> bool {
        self.to_value().is_ok_and(|value| value == *other)
    }
}

/// `decode_object!(Name [unknown extra?] { field: Type = "wire" => read missing, ... })`, the
/// one-pass `Deserialize` and `Serialize` of a generated struct, through [`DecodeObject`],
/// [`ObjectVisitor`] and [`ObjectWriter`], which the invoking module imports with
/// [`UnknownKeys`], [`UnknownFields`] and the `read_*` functions.
///
/// `unknown` is what a key the schema does not list does: `keep` (into the field `extra`),
/// `tolerant`, `refused` or `skipped`; `read` is `value`, or `present` for a field whose
/// present value must decode as the inner type (`null` included), or `integer` and
/// `present_integer` for a plain integer's (any number without a fraction, `3.0` included, as
/// JSON Schema counts integers); `missing` is `required` (serde's "missing field"), `default`
/// or `default_with(path)`; `if path` skips writing the field when `path(&field)` holds.
///
/// The invocation implements `DecodeObject`: the struct's slots, its key lookup, one arm per
/// field that reads the value into its slot, and the struct built from the slots. The loop
/// over the map, duplicate and unknown keys are the one generic visitor, so each struct's own
/// code is small and has no loop, `?` or owned deserializer of its own. Slots are declared
/// with their field's type, so nothing waits on inference.
#[doc(hidden)]
#[macro_export]
macro_rules! decode_object {
    ($name:ident [$unknown:ident $($extra:ident)?] {
        $($field:ident: $ty:ty = $wire:literal => $read:ident $missing:ident $(($default:path))? $(if $skip:path)?,)*
    }) => {
        const _: () = {
            #[allow(non_camel_case_types)]
            pub enum __Field { $($field),* }

            pub struct __Slots { $($field: ::std::option::Option<$ty>,)* }

            impl DecodeObject for $name {
                type Field = __Field;
                type Slots = __Slots;
                const EXPECTING: &'static str = ::std::concat!("struct ", ::std::stringify!($name));
                const FIELDS: &'static [&'static str] = &[$($wire),*];
                const UNKNOWN: UnknownKeys = $crate::decode_object!(@unknown $unknown);

                fn slots() -> __Slots {
                    __Slots { $($field: ::std::option::Option::None,)* }
                }

                fn field(key: &str) -> ::std::option::Option<__Field> {
                    match key {
                        $($wire => ::std::option::Option::Some(__Field::$field),)*
                        _ => ::std::option::Option::None,
                    }
                }

                // `field_`, not `field`: a property named `field` is a variant
                // `__Field::field`, which a binding of that name would shadow (E0170).
                // typify never writes a field name with a trailing `_` but a keyword.
                fn read<'de, A: ::serde::de::MapAccess<'de>>(slots: &mut __Slots, field_: __Field, map: &mut A) -> ::std::result::Result<(), A::Error> {
                    match field_ {
                        $(__Field::$field => $crate::decode_object!(@read $read map slots.$field, $wire),)*
                    }
                }

                #[allow(unused_variables)]
                fn finish<E: ::serde::de::Error>(slots: __Slots, extra: UnknownFields) -> ::std::result::Result<Self, E> {
                    ::std::result::Result::Ok($name {
                        $($field: $crate::decode_object!(@missing slots.$field, $wire, $missing $(($default))?),)*
                        $($extra: extra,)?
                    })
                }
            }

            impl<'de> ::serde::Deserialize<'de> for $name {
                fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> ::std::result::Result<Self, D::Error> {
                    deserializer.deserialize_map(ObjectVisitor::<$name>(::std::marker::PhantomData))
                }
            }

            impl ::serde::Serialize for $name {
                fn serialize<S: ::serde::Serializer>(&self, serializer: S) -> ::std::result::Result<S::Ok, S::Error> {
                    let len = 0 $(+ $crate::decode_object!(@count self.$field $(, $skip)?))*;
                    let open = $crate::decode_object!(@open $($extra)?);
                    // An object without properties writes nothing before `end`.
                    #[allow(unused_mut)]
                    let mut object = ObjectWriter::<S>::new(serializer, ::std::stringify!($name), len, open)?;
                    $($crate::decode_object!(@write object self.$field, $wire $(, $skip)?);)*
                    $(object.extra(&self.$extra);)?
                    object.end()
                }
            }
        };
    };
    (@write $object:ident $value:expr, $wire:literal) => { $object.field($wire, &$value) };
    (@write $object:ident $value:expr, $wire:literal, $skip:path) => {
        if !$skip(&$value) {
            $object.field($wire, &$value)
        }
    };
    (@count $value:expr) => { 1 };
    (@count $value:expr, $skip:path) => { (!$skip(&$value)) as usize };
    (@open) => { false };
    (@open $extra:ident) => { true };
    (@unknown keep) => { UnknownKeys::Keep };
    (@unknown tolerant) => { UnknownKeys::Tolerant };
    (@unknown refused) => { UnknownKeys::Refused };
    (@unknown skipped) => { UnknownKeys::Skipped };
    (@read value $map:ident $slot:expr, $wire:literal) => { read_value($map, &mut $slot, $wire) };
    (@read present $map:ident $slot:expr, $wire:literal) => { read_present($map, &mut $slot, $wire) };
    (@read integer $map:ident $slot:expr, $wire:literal) => { read_integer($map, &mut $slot, $wire) };
    (@read present_integer $map:ident $slot:expr, $wire:literal) => { read_present_integer($map, &mut $slot, $wire) };
    (@missing $slot:expr, $wire:literal, required) => {
        match $slot {
            ::std::option::Option::Some(value) => value,
            ::std::option::Option::None => return ::std::result::Result::Err(E::missing_field($wire)),
        }
    };
    (@missing $slot:expr, $wire:literal, default) => { $slot.unwrap_or_default() };
    (@missing $slot:expr, $wire:literal, default_with($default:path)) => { $slot.unwrap_or_else($default) };
}

/// `default_object!(Name { field, field(path), ... })`: `Default` for a generated struct
/// whose fields may all be absent, each field what an empty object decodes to (`path()` for a
/// schema `default`), so that a body with optional fields only is `Name::default()` or
/// `Name { field: ..., ..Default::default() }`.
///
/// `default_object!(new Name (required: Type, ...) { field, field(path), ... })`:
/// `Name::new(required, ...)` for a struct with required fields where no builder is written,
/// so that a body is built from its required fields, its optional ones then set by name.
#[doc(hidden)]
#[macro_export]
macro_rules! default_object {
    (new $name:ident ($($required:ident : $ty:ty),*) { $($field:ident $(($default:path))?),* }) => {
        impl $name {
            /// A value of the required fields given, every other field as an object
            /// without it decodes (absent, or its schema's `default`).
            #[allow(clippy::too_many_arguments)]
            pub fn new($($required: $ty),*) -> Self {
                $name { $($required,)* $($field: $crate::default_object!(@value $($default)?),)* }
            }
        }
    };
    ($name:ident { $($field:ident $(($default:path))?),* }) => {
        impl ::std::default::Default for $name {
            fn default() -> Self {
                $name { $($field: $crate::default_object!(@value $($default)?),)* }
            }
        }
    };
    (@value) => { ::std::default::Default::default() };
    (@value $default:path) => { $default() };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_integer_reads_any_number_without_a_fraction_within_its_type() {
        let whole = |json: &str| serde_json::from_str::<Whole<i64>>(json).map(|whole| whole.0);
        assert_eq!(whole("3").unwrap(), 3);
        assert_eq!(whole("3.0").unwrap(), 3);
        assert_eq!(whole("-2e2").unwrap(), -200);
        assert!(
            whole("3.5")
                .unwrap_err()
                .to_string()
                .starts_with("invalid type: floating point `3.5`, expected an integer (i64)")
        );
        assert!(whole("\"3\"").is_err());
        let small = serde_json::from_str::<Whole<u8>>("256").unwrap_err();
        assert!(
            small.to_string().starts_with("256 is out of range for u8"),
            "{small}"
        );
        let nullable: Option<Whole<i32>> = serde_json::from_str("null").unwrap();
        assert!(nullable.is_none());
    }

    /// `{"list": [integer], "nullable": [integer] | null, "present": [u8] (optional, not
    /// nullable)}`, read as a decoder reads plain integer lists.
    #[derive(Debug, PartialEq)]
    struct Lists {
        list: Option<Vec<i64>>,
        nullable: Option<Option<Vec<i64>>>,
        present: Option<Option<Vec<u8>>>,
    }

    impl<'de> serde::Deserialize<'de> for Lists {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct ListsVisitor;
            impl<'de> Visitor<'de> for ListsVisitor {
                type Value = Lists;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("lists")
                }
                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Lists, A::Error> {
                    let (mut list, mut nullable, mut present) = (None, None, None);
                    while let Some(key) = map.next_key::<String>()? {
                        match key.as_str() {
                            "list" => read_integer(&mut map, &mut list, "list")?,
                            "nullable" => read_integer(&mut map, &mut nullable, "nullable")?,
                            "present" => read_present_integer(&mut map, &mut present, "present")?,
                            _ => return Err(serde::de::Error::unknown_field(&key, &[])),
                        }
                    }
                    Ok(Lists {
                        list,
                        nullable,
                        present,
                    })
                }
            }
            deserializer.deserialize_map(ListsVisitor)
        }
    }

    #[test]
    fn a_list_of_plain_integers_reads_each_as_a_plain_integer() {
        let lists: Lists = serde_json::from_str(
            r#"{"list": [1, 2.0, -3e0], "nullable": null, "present": [255.0]}"#,
        )
        .unwrap();
        assert_eq!(
            lists,
            Lists {
                list: Some(vec![1, 2, -3]),
                nullable: Some(None),
                present: Some(Some(vec![255])),
            }
        );
        let read = |json: &str| serde_json::from_str::<Lists>(json).unwrap_err().to_string();
        assert!(read(r#"{"list": [1.5]}"#).starts_with("invalid type: floating point `1.5`"));
        assert!(read(r#"{"present": [256]}"#).starts_with("256 is out of range for u8"));
        assert!(read(r#"{"present": null}"#).starts_with("invalid type: null"));
        assert!(read(r#"{"list": null}"#).starts_with("invalid type: null"));
    }

    /// `{"id": string (required), "note": string (optional)}`, open or not by `UNKNOWN`.
    #[derive(Debug, PartialEq)]
    struct Item<const OPEN: bool> {
        id: String,
        note: Option<String>,
        extra: UnknownFields,
    }

    enum Field {
        Id,
        Note,
    }

    impl<const OPEN: bool> DecodeObject for Item<OPEN> {
        type Field = Field;
        type Slots = (Option<String>, Option<Option<String>>);
        const EXPECTING: &'static str = "struct Item";
        const FIELDS: &'static [&'static str] = &["id", "note"];
        const UNKNOWN: UnknownKeys = if OPEN {
            UnknownKeys::Keep
        } else {
            UnknownKeys::Tolerant
        };

        fn slots() -> Self::Slots {
            (None, None)
        }

        fn field(key: &str) -> Option<Field> {
            match key {
                "id" => Some(Field::Id),
                "note" => Some(Field::Note),
                _ => None,
            }
        }

        fn read<'de, A: MapAccess<'de>>(
            slots: &mut Self::Slots,
            field: Field,
            map: &mut A,
        ) -> Result<(), A::Error> {
            match field {
                Field::Id => read_value(map, &mut slots.0, "id"),
                Field::Note => read_present(map, &mut slots.1, "note"),
            }
        }

        fn finish<E: serde::de::Error>(
            slots: Self::Slots,
            extra: UnknownFields,
        ) -> Result<Self, E> {
            Ok(Self {
                id: slots.0.ok_or_else(|| E::missing_field("id"))?,
                note: slots.1.unwrap_or_default(),
                extra,
            })
        }
    }

    impl<'de, const OPEN: bool> serde::Deserialize<'de> for Item<OPEN> {
        fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            deserializer.deserialize_map(ObjectVisitor::<Self>(PhantomData))
        }
    }

    impl<const OPEN: bool> serde::Serialize for Item<OPEN> {
        fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            let len = 1 + usize::from(self.note.is_some());
            let mut object = ObjectWriter::new(serializer, "Item", len, OPEN)?;
            object.field("id", &self.id);
            if let Some(note) = &self.note {
                object.field("note", note);
            }
            if OPEN {
                object.extra(&self.extra);
            }
            object.end()
        }
    }

    #[test]
    fn an_open_object_keeps_unknown_properties_exactly_and_in_order() {
        let text = r#"{"zeta":1e400,"id":"a","alpha":[1, 2]}"#;
        let item: Item<true> = serde_json::from_str(text).unwrap();
        assert_eq!(item.id, "a");
        assert_eq!(item.extra.keys().collect::<Vec<_>>(), ["zeta", "alpha"]);
        assert_eq!(item.extra["zeta"].get(), "1e400");
        assert_eq!(item.extra["alpha"], serde_json::json!([1, 2]));
        assert_eq!(
            serde_json::to_string(&item).unwrap(),
            r#"{"id":"a","zeta":1e400,"alpha":[1, 2]}"#
        );
    }

    #[test]
    fn keys_are_refused_twice_and_required_ones_when_missing() {
        let twice = serde_json::from_str::<Item<false>>(r#"{"id":"a","id":"b"}"#).unwrap_err();
        assert!(
            twice.to_string().contains("duplicate field `id`"),
            "{twice}"
        );
        let unknown_twice =
            serde_json::from_str::<Item<true>>(r#"{"id":"a","x":1,"x":2}"#).unwrap_err();
        assert!(
            unknown_twice.to_string().contains("duplicate field `x`"),
            "{unknown_twice}"
        );
        let missing = serde_json::from_str::<Item<false>>(r#"{"note":"n"}"#).unwrap_err();
        assert!(
            missing.to_string().contains("missing field `id`"),
            "{missing}"
        );
        let null = serde_json::from_str::<Item<false>>(r#"{"id":"a","note":null}"#).unwrap_err();
        assert!(null.to_string().contains("invalid type: null"), "{null}");
    }

    #[test]
    fn a_tolerant_object_skips_unknown_keys_unless_decoding_is_strict() {
        let text = r#"{"id":"a","new":true}"#;
        let item: Item<false> = serde_json::from_str(text).unwrap();
        assert!(item.extra.is_empty());
        assert_eq!(serde_json::to_string(&item).unwrap(), r#"{"id":"a"}"#);
        let strict = crate::decoding::strict(|| serde_json::from_str::<Item<false>>(text));
        let error = strict.unwrap_err().to_string();
        assert!(
            error.contains("unknown field `new`, expected `id` or `note`"),
            "{error}"
        );
    }
}
