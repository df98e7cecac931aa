//! Doc text that compiles: every `#[doc = "..."]` of the generated tree is made safe to print
//! as a `///` comment, whatever the description's publisher put in it.
//!
//! Descriptions are the publisher's text, and real ones hold carriage returns (a doc comment
//! with a bare CR is a lexer error), control characters, and the Unicode characters that change
//! the visible direction of text (rustc's deny-by-default `text_direction_codepoint_in_comment`).
//! One pass over the finished tree covers the docs typify, progenitor and every step of ours
//! wrote, so no writer of docs has to remember it.

use std::borrow::Cow;

use syn::visit_mut::VisitMut;

/// Makes every doc attribute of `file` safe text (see [`safe_doc_text`]).
pub(crate) fn make_docs_safe(file: &mut syn::File) {
    SafeDocs.visit_file_mut(file);
}

struct SafeDocs;

impl VisitMut for SafeDocs {
    fn visit_attribute_mut(&mut self, attribute: &mut syn::Attribute) {
        if !attribute.path().is_ident("doc") {
            return;
        }
        if let syn::Meta::NameValue(pair) = &mut attribute.meta
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(text),
                ..
            }) = &mut pair.value
        {
            let value = text.value();
            if let Cow::Owned(safe) = safe_doc_text(&value) {
                *text = syn::LitStr::new(&safe, text.span());
            }
        }
    }
}

/// `text` as a doc comment can hold it: line breaks of every spelling (CR LF, CR, NEL, the
/// Unicode line and paragraph separators) become `\n`, the characters that change the visible
/// direction of text are left out, and so is every other control character but the tab.
/// Borrowed when there is nothing to change, which is nearly always.
pub(crate) fn safe_doc_text(text: &str) -> Cow<'_, str> {
    if !text.chars().any(needs_change) {
        return Cow::Borrowed(text);
    }
    let mut safe = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                chars.next_if_eq(&'\n');
                safe.push('\n');
            }
            '\u{85}' | '\u{2028}' | '\u{2029}' => safe.push('\n'),
            c if needs_change(c) => {}
            c => safe.push(c),
        }
    }
    Cow::Owned(safe)
}

fn needs_change(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t') || changes_direction(c) || is_separator(c)
}

/// rustc's list of the code points that change the visible direction of text.
fn changes_direction(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

fn is_separator(c: char) -> bool {
    matches!(c, '\u{2028}' | '\u{2029}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_breaks_of_every_spelling_become_newlines() {
        assert_eq!(safe_doc_text("a\r\nb\rc\u{85}d\u{2028}e"), "a\nb\nc\nd\ne");
    }

    #[test]
    fn control_and_direction_characters_are_left_out() {
        assert_eq!(
            safe_doc_text("a\u{7}b\u{0}c\u{9f}d\u{202E}e\u{2066}f\tg"),
            "abcdef\tg"
        );
    }

    #[test]
    fn ordinary_text_is_borrowed() {
        assert!(matches!(
            safe_doc_text("plain text, ünïcode\nand\ttabs"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn every_doc_attribute_of_a_tree_is_made_safe() {
        let mut file: syn::File = syn::parse_quote! {
            #[doc = "top\r\nline"]
            pub mod types {
                #[doc = "field\u{202E}"]
                pub struct S {
                    #[doc = "x\ry"]
                    pub x: i64,
                }
            }
        };
        make_docs_safe(&mut file);
        let printed = prettyplease::unparse(&file);
        assert!(!printed.contains('\r'), "{printed}");
        assert!(!printed.contains('\u{202E}'), "{printed}");
        assert!(printed.contains("top\nline"), "{printed}");
        assert!(
            printed.contains("x\n") && printed.contains("y"),
            "{printed}"
        );
    }
}
