//! Checks of an array's items as a whole: `uniqueItems`, which compares items as JSON Schema
//! does (by their JSON value, so `1` equals `1.0` and objects equal whatever their key order).

use serde::Serialize;
use serde_json::Value;

/// Whether two of `items` are the same JSON value. Each item is compared as it would be sent
/// (its serialization); an item that cannot be serialized is never a duplicate, as it cannot
/// be sent at all.
pub fn has_duplicates<T: Serialize>(items: &[T]) -> bool {
    let values: Vec<Value> = items
        .iter()
        .filter_map(|item| serde_json::to_value(item).ok())
        .collect();
    values.iter().enumerate().any(|(index, value)| {
        values[..index]
            .iter()
            .any(|earlier| json_equal(earlier, value))
    })
}

/// JSON Schema's equality: numbers by their mathematical value, arrays item by item, objects
/// key by key in any order.
fn json_equal(left: &Value, right: &Value) -> bool {
    match (left, right) {
        (Value::Number(left), Value::Number(right)) => {
            let whole = |number: &serde_json::Number| {
                number
                    .as_i64()
                    .map(i128::from)
                    .or_else(|| number.as_u64().map(i128::from))
            };
            match (whole(left), whole(right)) {
                (Some(left), Some(right)) => left == right,
                _ => left.as_f64() == right.as_f64(),
            }
        }
        (Value::Array(left), Value::Array(right)) => {
            left.len() == right.len() && left.iter().zip(right).all(|(l, r)| json_equal(l, r))
        }
        (Value::Object(left), Value::Object(right)) => {
            left.len() == right.len()
                && left
                    .iter()
                    .all(|(key, l)| right.get(key).is_some_and(|r| json_equal(l, r)))
        }
        _ => left == right,
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn duplicates_are_equal_json_values() {
        assert!(!has_duplicates::<String>(&[]));
        assert!(!has_duplicates(&["a", "b"]));
        assert!(has_duplicates(&["a", "b", "a"]));
        assert!(has_duplicates(&[json!(1), json!(1.0)]));
        assert!(!has_duplicates(&[json!(1), json!(1.5), json!("1")]));
        assert!(has_duplicates(&[
            json!({"a": 1, "b": [2]}),
            json!({"b": [2.0], "a": 1})
        ]));
        assert!(!has_duplicates(&[
            json!({"a": 1}),
            json!({"a": 1, "b": null})
        ]));
        assert!(!has_duplicates(&[json!([1, 2]), json!([2, 1])]));
        assert!(!has_duplicates(&[json!(u64::MAX), json!(u64::MAX - 1)]));
    }
}
