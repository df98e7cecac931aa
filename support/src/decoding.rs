//! How generated types decode what a server sends: tolerant by default, strict inside
//! [`strict`].
//!
//! Tolerant decoding keeps what a newer server may add: an enum value or union variant the spec
//! does not list becomes the type's `Unknown` variant, holding the value as sent (and
//! serializing back to it), and an unknown property of a closed object is skipped. Every other
//! rule of the spec is enforced in both modes. The mode is per thread and shared by every
//! generated crate in the process.

use std::cell::Cell;

thread_local! {
    static STRICT: Cell<bool> = const { Cell::new(false) };
}

/// Runs `decode` with strict decoding on this thread: what the spec does not list is refused,
/// as the spec refuses it. Decoding is synchronous, so every decode that `decode` runs is
/// covered; the previous mode is restored afterwards, even if `decode` panics.
///
/// For instance, an enum value the spec does not list decodes to `Unknown(..)` on its own, and
/// to an `unknown variant` error inside `strict(|| serde_json::from_str(..))`.
pub fn strict<T>(decode: impl FnOnce() -> T) -> T {
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            STRICT.with(|strict| strict.set(self.0));
        }
    }
    let _restore = Restore(STRICT.with(|strict| strict.replace(true)));
    decode()
}

/// Whether this thread decodes strictly.
pub fn is_strict() -> bool {
    STRICT.with(Cell::get)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_is_scoped_nested_and_restored_after_a_panic() {
        assert!(!is_strict());
        strict(|| {
            assert!(is_strict());
            strict(|| assert!(is_strict()));
            assert!(is_strict());
        });
        assert!(!is_strict());
        let panicked = std::panic::catch_unwind(|| strict(|| panic!("inside")));
        assert!(panicked.is_err());
        assert!(!is_strict());
    }
}
