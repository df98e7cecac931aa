//! Doc text that compiles: every `#[doc = "..."]` of the generated tree is made safe to print
//! as a `///` comment, whatever the description's publisher put in it.
//!
//! Descriptions are the publisher's text, and real ones hold carriage returns (a doc comment
//! with a bare CR is a lexer error), control characters, and the Unicode characters that change
//! the visible direction of text (rustc's deny-by-default `text_direction_codepoint_in_comment`).
//! They are also Markdown that rustdoc reads, written for another renderer: bare URLs, `[x]`
//! that rustdoc takes for an intra-doc link, `<id>` that it takes for an unclosed HTML tag, and
//! code blocks without a language (fenced or indented), which rustdoc compiles as doc tests of
//! the generated crate. [`rustdoc_markdown`] rewrites each item's docs so that `cargo doc` has
//! nothing to warn of and `cargo test` nothing of the publisher's to compile.
//!
//! One pass over the finished tree covers the docs typify, progenitor and every step of ours
//! wrote, so no writer of docs has to remember it.

use std::borrow::Cow;

use syn::visit_mut::VisitMut;

/// Makes every doc attribute of `file` safe text (see [`safe_doc_text`]) and each item's docs
/// Markdown rustdoc reads as meant (see [`rustdoc_markdown`]).
pub(crate) fn make_docs_safe(file: &mut syn::File) {
    SafeDocs.visit_file_mut(file);
}

struct SafeDocs;

/// The doc attributes of one item, field or variant, rewritten together: a code fence opened
/// in one attribute closes in another.
fn item_docs(attributes: &mut [syn::Attribute]) {
    let mut texts: Vec<(usize, String)> = Vec::new();
    for (index, attribute) in attributes.iter().enumerate() {
        if let Some(text) = doc_text(attribute) {
            texts.push((index, safe_doc_text(&text).into_owned()));
        }
    }
    if texts.is_empty() {
        return;
    }
    let mut docs: Vec<String> = texts.iter().map(|(_, text)| text.clone()).collect();
    rustdoc_markdown(&mut docs);
    for ((index, before), after) in texts.iter().zip(docs) {
        if *before != after
            && let syn::Meta::NameValue(pair) = &mut attributes[*index].meta
        {
            pair.value = syn::parse_quote!(#after);
        }
    }
}

fn doc_text(attribute: &syn::Attribute) -> Option<String> {
    if !attribute.path().is_ident("doc") {
        return None;
    }
    match &attribute.meta {
        syn::Meta::NameValue(syn::MetaNameValue {
            value:
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(text),
                    ..
                }),
            ..
        }) => Some(text.value()),
        _ => None,
    }
}

impl VisitMut for SafeDocs {
    fn visit_item_mut(&mut self, item: &mut syn::Item) {
        let attributes = match item {
            syn::Item::Const(item) => &mut item.attrs,
            syn::Item::Enum(item) => &mut item.attrs,
            syn::Item::Fn(item) => &mut item.attrs,
            syn::Item::Impl(item) => &mut item.attrs,
            syn::Item::Macro(item) => &mut item.attrs,
            syn::Item::Mod(item) => &mut item.attrs,
            syn::Item::Static(item) => &mut item.attrs,
            syn::Item::Struct(item) => &mut item.attrs,
            syn::Item::Trait(item) => &mut item.attrs,
            syn::Item::Type(item) => &mut item.attrs,
            syn::Item::Union(item) => &mut item.attrs,
            syn::Item::Use(item) => &mut item.attrs,
            _ => return syn::visit_mut::visit_item_mut(self, item),
        };
        item_docs(attributes);
        syn::visit_mut::visit_item_mut(self, item);
    }

    fn visit_impl_item_mut(&mut self, item: &mut syn::ImplItem) {
        match item {
            syn::ImplItem::Fn(function) => item_docs(&mut function.attrs),
            syn::ImplItem::Const(constant) => item_docs(&mut constant.attrs),
            syn::ImplItem::Type(alias) => item_docs(&mut alias.attrs),
            _ => {}
        }
        syn::visit_mut::visit_impl_item_mut(self, item);
    }

    fn visit_field_mut(&mut self, field: &mut syn::Field) {
        item_docs(&mut field.attrs);
        syn::visit_mut::visit_field_mut(self, field);
    }

    fn visit_variant_mut(&mut self, variant: &mut syn::Variant) {
        item_docs(&mut variant.attrs);
        syn::visit_mut::visit_variant_mut(self, variant);
    }

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

/// Rewrites the doc texts of one item (`docs`, in order; each may hold several lines) as
/// Markdown that rustdoc renders without a warning and in which it finds no doc test:
///
/// - a code block rustdoc would compile (no language, `rust`, or only rustdoc's own attributes
///   but `ignore`) is fenced as `text`; an indented code block is fenced as `text` too; a fence left open is
///   closed;
/// - outside code, a bare `http(s)://` URL becomes an autolink `<...>`, a `[...]` that is
///   neither a link (`[x](...)`, `[x][y]`, `[x]: ...`) nor an intra-doc link to code
///   (`` [`X`] ``, as the generators write) is escaped, and so is a `<` that would open an
///   HTML tag.
///
/// Lines are read as rustdoc reads them, after the indentation all of them share is removed.
pub(crate) fn rustdoc_markdown(docs: &mut [String]) {
    let base = docs
        .iter()
        .flat_map(|doc| doc.split('\n'))
        .filter(|line| !line.trim().is_empty())
        .map(indentation)
        .min()
        .unwrap_or(0);
    let mut state = Blocks::default();
    let last = docs.len().saturating_sub(1);
    for (position, doc) in docs.iter_mut().enumerate() {
        let lines: Vec<String> = doc.split('\n').map(|line| state.line(line, base)).collect();
        let mut text = lines.join("\n");
        if position == last
            && let Some(close) = state.close()
        {
            text.push('\n');
            text.push_str(&close);
        }
        *doc = text;
    }
}

/// Where a line sits among the block constructs of the docs read so far.
#[derive(Default)]
struct Blocks {
    /// The fence (its character and length) of the fenced code block the lines are in.
    fence: Option<(char, usize)>,
    /// In an indented code block (fenced as `text` where it started).
    indented: bool,
    /// The previous line was blank (or there was none).
    after_blank: bool,
    /// Inside a list item, where indented lines continue the item.
    in_list: bool,
    started: bool,
}

impl Blocks {
    fn line(&mut self, line: &str, base: usize) -> String {
        let first = !self.started;
        self.started = true;
        let blank = line.trim().is_empty();
        let indent = indentation(line).saturating_sub(base);
        let content = line.trim_start();
        if let Some((marker, length)) = self.fence {
            let run = content.chars().take_while(|c| *c == marker).count();
            if indent < 4 && run >= length && content[run * marker.len_utf8()..].trim().is_empty() {
                self.fence = None;
            }
            self.after_blank = blank;
            return line.to_owned();
        }
        let mut prefix = String::new();
        if self.indented {
            if blank || indent >= 4 {
                self.after_blank = blank;
                return line.to_owned();
            }
            self.indented = false;
            prefix = format!("{}```\n", " ".repeat(base));
        }
        if blank {
            self.after_blank = true;
            return format!("{prefix}{line}");
        }
        if indent < 4
            && let Some((marker, length, info)) = fence_opening(content)
        {
            self.fence = Some((marker, length));
            self.after_blank = false;
            let rewritten = if is_compiled_info(info) {
                let opening: String = std::iter::repeat_n(marker, length).collect();
                format!("{}{opening}text", &line[..line.len() - content.len()])
            } else {
                line.to_owned()
            };
            return format!("{prefix}{rewritten}");
        }
        if indent >= 4 && (self.after_blank || first) && !self.in_list {
            self.indented = true;
            self.after_blank = false;
            return format!("{prefix}{}```text\n{line}", " ".repeat(base));
        }
        if indent < 4 {
            self.in_list = is_list_item(content) || (self.in_list && !self.after_blank);
        }
        self.after_blank = false;
        format!("{prefix}{}", inline_markdown(line))
    }

    /// The line that closes a code block left open at the end of the docs.
    fn close(&mut self) -> Option<String> {
        if let Some((marker, length)) = self.fence.take() {
            return Some(std::iter::repeat_n(marker, length).collect());
        }
        if std::mem::take(&mut self.indented) {
            return Some("```".to_owned());
        }
        None
    }
}

fn indentation(line: &str) -> usize {
    line.chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .map(|c| if c == '\t' { 4 } else { 1 })
        .sum()
}

/// A fence's character, length and info string, when `content` opens a fenced code block.
fn fence_opening(content: &str) -> Option<(char, usize, &str)> {
    let marker = content.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let length = content.chars().take_while(|c| *c == marker).count();
    let info = &content[length..];
    (length >= 3 && !(marker == '`' && info.contains('`'))).then_some((marker, length, info.trim()))
}

/// Whether rustdoc compiles a fence with this info string as a doc test: no language, `rust`,
/// or only its own doc-test attributes, `ignore` not among them (an ignored block is
/// highlighted as Rust and not compiled, as progenitor's examples are).
fn is_compiled_info(info: &str) -> bool {
    const RUSTDOC: &[&str] = &[
        "rust",
        "should_panic",
        "no_run",
        "compile_fail",
        "test_harness",
        "standalone_crate",
        "allow_fail",
        "edition2015",
        "edition2018",
        "edition2021",
        "edition2024",
    ];
    info.split([',', ' ', '\t'])
        .filter(|word| !word.is_empty())
        .all(|word| RUSTDOC.contains(&word))
}

fn is_list_item(content: &str) -> bool {
    let bullet = content.starts_with(['-', '*', '+']) && content[1..].starts_with([' ', '\t']);
    let digits = content.chars().take_while(char::is_ascii_digit).count();
    let numbered = digits > 0
        && content[digits..].starts_with(['.', ')'])
        && content[digits + 1..].starts_with([' ', '\t']);
    bullet || numbered
}

/// A line outside code blocks with its bare URLs, stray brackets and tag-like `<` made plain
/// Markdown; code spans are left as they are.
fn inline_markdown(line: &str) -> Cow<'_, str> {
    if !line.contains(['[', ']', '<', ':']) {
        return Cow::Borrowed(line);
    }
    let out = plain_markdown(line, line);
    if out == line {
        Cow::Borrowed(line)
    } else {
        Cow::Owned(out)
    }
}

/// The length of the code span at the start of `text` (a run of backticks, its content and
/// the same run again), if one starts there.
fn code_span(text: &str) -> Option<usize> {
    let run = text.chars().take_while(|c| *c == '`').count();
    if run == 0 {
        return None;
    }
    let bytes = text.as_bytes();
    let mut index = run;
    while index < bytes.len() {
        if bytes[index] == b'`' {
            let length = bytes[index..].iter().take_while(|b| **b == b'`').count();
            if length == run {
                return Some(index + length);
            }
            index += length;
        } else {
            index += 1;
        }
    }
    None
}

/// Where the `]` that closes the `[` at the start of `text` is, code spans skipped.
fn closing_bracket(text: &str) -> Option<usize> {
    let mut index = 1;
    while index < text.len() {
        let rest = &text[index..];
        if let Some(span) = code_span(rest) {
            index += span;
            continue;
        }
        match rest.chars().next() {
            Some(']') => return Some(index),
            Some('[') => return None,
            Some(c) => index += c.len_utf8(),
            None => return None,
        }
    }
    None
}

/// `text` (part of the line `whole`) with bare URLs made autolinks and stray brackets and
/// tag-like `<` escaped; code spans are copied as they are.
fn plain_markdown(text: &str, whole: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut index = 0;
    while index < text.len() {
        let rest = &text[index..];
        if let Some(span) = code_span(rest) {
            out.push_str(&rest[..span]);
            index += span;
            continue;
        }
        let c = rest.chars().next().unwrap_or_default();
        // A link's target follows `](`; after an escaped `\]` (its `[` on an earlier line) the
        // URL is prose again.
        let link_target = out.ends_with("](") && !out.ends_with("\\](");
        if (rest.starts_with("https://") || rest.starts_with("http://"))
            && !link_target
            && !out.ends_with('<')
            && !out.ends_with("=\"")
        {
            let url = url_at(rest);
            out.push('<');
            out.push_str(url);
            out.push('>');
            index += url.len();
            continue;
        }
        match c {
            '<' if rest[1..]
                .starts_with(|c: char| c.is_ascii_alphabetic() || c == '/' || c == '!')
                && !rest[1..].starts_with("http://")
                && !rest[1..].starts_with("https://") =>
            {
                out.push_str("\\<");
            }
            '[' => match closing_bracket(rest) {
                Some(end)
                    if keeps_brackets(&rest[1..end], &rest[end + 1..])
                        || whole
                            .trim_start()
                            .starts_with(&format!("{}:", &rest[..=end])) =>
                {
                    out.push('[');
                    out.push_str(&plain_markdown(&rest[1..end], whole));
                    out.push(']');
                    index += end + 1;
                    continue;
                }
                Some(end) => {
                    out.push_str("\\[");
                    out.push_str(&plain_markdown(&rest[1..end], whole));
                    out.push_str("\\]");
                    index += end + 1;
                    continue;
                }
                None => out.push_str("\\["),
            },
            ']' => out.push_str("\\]"),
            c => out.push(c),
        }
        index += c.len_utf8();
    }
    out
}

/// Whether `[inside]` followed by `after` is a link rustdoc resolves: an inline link, or an
/// intra-doc link to code, which the generators write. A reference-style `[x][y]` is not kept:
/// in descriptions it is far more often a pattern (`[a-z][a-z0-9]*`) than a link.
fn keeps_brackets(inside: &str, after: &str) -> bool {
    after.starts_with('(')
        || (inside.len() >= 2 && inside.starts_with('`') && inside.ends_with('`'))
}

/// The URL at the start of `text`: up to whitespace or a character a URL in prose does not
/// end with (trailing punctuation, an unbalanced `)`).
fn url_at(text: &str) -> &str {
    let end = text
        .find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"' | '`' | '\''))
        .unwrap_or(text.len());
    let mut url = &text[..end];
    loop {
        let trimmed = url.trim_end_matches(['.', ',', ';', ':', '!', '?', '*', '_']);
        let unbalanced = (trimmed.ends_with(')')
            && trimmed.matches('(').count() < trimmed.matches(')').count())
            || (trimmed.ends_with(']') && !trimmed.contains('['));
        let trimmed = if unbalanced {
            &trimmed[..trimmed.len() - 1]
        } else {
            trimmed
        };
        if trimmed.len() == url.len() {
            return url;
        }
        url = trimmed;
    }
}

/// `text` as one safe line of Markdown for rustdoc (see [`safe_doc_text`] and
/// [`rustdoc_markdown`]): what a README that is also a crate's documentation quotes of a
/// description.
pub(crate) fn rustdoc_line(text: &str) -> String {
    let line = safe_doc_text(text).replace('\n', " ");
    inline_markdown(&line).into_owned()
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

    fn markdown(docs: &[&str]) -> Vec<String> {
        let mut docs: Vec<String> = docs.iter().map(|doc| (*doc).to_owned()).collect();
        rustdoc_markdown(&mut docs);
        docs
    }

    #[test]
    fn bare_urls_become_autolinks_and_links_stay() {
        assert_eq!(
            markdown(&[
                "See https://example.com/a_(b). Or [docs](https://example.com/d), <https://example.com/e>, (http://x.io/y)."
            ]),
            [
                "See <https://example.com/a_(b)>. Or [docs](https://example.com/d), <https://example.com/e>, (<http://x.io/y>)."
            ]
        );
    }

    #[test]
    fn stray_brackets_and_tags_are_escaped_and_code_is_not() {
        assert_eq!(
            markdown(&["Use [id] or <id>, `[x] <y>`, [`Client::get`] and [a][b]; a<b and </p>."]),
            [
                "Use \\[id\\] or \\<id>, `[x] <y>`, [`Client::get`] and \\[a\\]\\[b\\]; a\\<b and \\</p>."
            ]
        );
        // A link whose text started on an earlier line is prose by the time its URL comes.
        assert_eq!(
            markdown(&[
                "See the [JSON mode",
                "guide](https://docs.example.com/json)."
            ]),
            [
                "See the \\[JSON mode",
                "guide\\](<https://docs.example.com/json>)."
            ]
        );
        // A reference definition takes its destination in angle brackets too.
        assert_eq!(markdown(&["[a]: https://a.io"]), ["[a]: <https://a.io>"]);
    }

    #[test]
    fn code_blocks_rustdoc_would_compile_are_fenced_as_text() {
        assert_eq!(
            markdown(&[
                "Example:",
                "```",
                "curl -X POST",
                "```",
                "```json",
                "{}",
                "```"
            ]),
            [
                "Example:",
                "```text",
                "curl -X POST",
                "```",
                "```json",
                "{}",
                "```"
            ]
        );
        assert_eq!(markdown(&["```no_run", "x", ""]), ["```text", "x", "\n```"]);
        assert_eq!(
            markdown(&["```ignore", "x", "```"]),
            ["```ignore", "x", "```"]
        );
        assert_eq!(
            markdown(&["Call:\n\n    client.get(1)\n    more\n\nThen."]),
            ["Call:\n\n```text\n    client.get(1)\n    more\n\n```\nThen."]
        );
        // Items of a list continue on indented lines; they are not code.
        assert_eq!(
            markdown(&["- one\n\n    still one"]),
            ["- one\n\n    still one"]
        );
        // The indentation every line shares is not a code block's.
        assert_eq!(
            markdown(&["     An indented description.", "     More."]),
            ["     An indented description.", "     More."]
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
