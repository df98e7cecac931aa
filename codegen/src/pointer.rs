//! JSON pointer (RFC 6901) building, so every message names its place the same way.

/// Appends one reference token to a pointer, escaping `~` and `/`.
pub(crate) fn push(pointer: &str, token: &str) -> String {
    format!("{pointer}/{}", token.replace('~', "~0").replace('/', "~1"))
}

/// The component name a local `#/components/schemas/<Name>` reference points to.
pub(crate) fn schema_ref_name(reference: &str) -> Option<&str> {
    reference
        .strip_prefix("#/components/schemas/")
        .filter(|name| !name.contains('/'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_reference_tokens() {
        assert_eq!(push("/paths", "/api/{id}"), "/paths/~1api~1{id}");
        assert_eq!(push("", "a~b"), "/a~0b");
    }

    #[test]
    fn reads_local_schema_refs_only() {
        assert_eq!(schema_ref_name("#/components/schemas/Job"), Some("Job"));
        assert_eq!(schema_ref_name("#/components/parameters/Page"), None);
        assert_eq!(schema_ref_name("other.yaml#/components/schemas/Job"), None);
    }
}
