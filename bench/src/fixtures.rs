//! The bodies the benchmarks send and decode: notification pages with all four variants in
//! realistic sizes, and a webhook delivery. Deterministic (a fixed-seed generator), so every run
//! measures the same bytes.

use serde_json::{Value, json};

/// SplitMix64: tiny, fast and good enough to vary lengths and choices; no dependency needed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `low..=high`.
    pub fn range(&mut self, low: u64, high: u64) -> u64 {
        low + self.next_u64() % (high - low + 1)
    }

    pub fn chance(&mut self, percent: u64) -> bool {
        self.range(1, 100) <= percent
    }

    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.range(0, items.len() as u64 - 1) as usize]
    }
}

const WORDS: &[&str] = &[
    "scaling",
    "laws",
    "sparse",
    "mixture",
    "experts",
    "tokenizer",
    "weights",
    "safetensors",
    "fine-tuning",
    "budget",
    "attention",
    "quantized",
    "evaluation",
    "benchmark",
    "dataset",
    "model",
    "card",
    "license",
    "update",
    "fix",
    "typo",
    "readme",
    "config",
    "inference",
    "training",
    "checkpoint",
    "adapter",
    "merge",
    "pull",
    "request",
    "discussion",
    "multilingual",
];

const USERS: &[&str] = &[
    "ada", "grace", "alan", "barbara", "edsger", "donald", "frances", "margaret", "ken", "dennis",
    "radia", "leslie", "john", "niklaus", "tony", "shafi",
];

fn hex_id(rng: &mut Rng) -> String {
    format!("{:012x}{:012x}", rng.next_u64() >> 16, rng.next_u64() >> 16)
}

fn title(rng: &mut Rng) -> String {
    let words = rng.range(3, 10);
    let mut text = String::new();
    for index in 0..words {
        if index > 0 {
            text.push(' ');
        }
        text.push_str(rng.pick(WORDS));
    }
    // Sentence case, like real titles.
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_ascii_uppercase().to_string() + chars.as_str())
        .unwrap_or_default()
}

fn slug(rng: &mut Rng) -> String {
    (0..rng.range(2, 6))
        .map(|_| rng.pick(WORDS))
        .collect::<Vec<_>>()
        .join("-")
}

/// Both forms the hub sends: with and without milliseconds.
fn timestamp(rng: &mut Rng) -> String {
    let (day, hour, minute, second) = (
        rng.range(1, 28),
        rng.range(0, 23),
        rng.range(0, 59),
        rng.range(0, 59),
    );
    if rng.chance(50) {
        format!(
            "2026-10-{day:02}T{hour:02}:{minute:02}:{second:02}.{:03}Z",
            rng.range(0, 999)
        )
    } else {
        format!("2026-10-{day:02}T{hour:02}:{minute:02}:{second:02}Z")
    }
}

fn participants(rng: &mut Rng) -> Value {
    let count = rng.range(1, 6);
    Value::Array(
        (0..count)
            .map(|_| {
                let user = rng.pick(USERS);
                json!({
                    "_id": hex_id(rng),
                    "avatar": format!("https://hub.example.com/avatars/{user}-{:x}.svg", rng.next_u64() >> 40),
                    "user": user,
                })
            })
            .collect(),
    )
}

/// Notification `index` of a page: the four kinds in turn, each with its optional members
/// present most of the time.
fn notification(rng: &mut Rng, index: usize) -> Value {
    let mut value = match index % 4 {
        0 => {
            let paper_id = hex_id(rng);
            json!({
                "type": "paper",
                "updatedAt": timestamp(rng),
                "read": rng.chance(50),
                "paper": { "_id": paper_id, "title": title(rng) },
                "paperDiscussion": {
                    "id": hex_id(rng),
                    "paperId": paper_id,
                    "participating": participants(rng),
                },
            })
        }
        1 => json!({
            "type": "repo",
            "updatedAt": timestamp(rng),
            "read": rng.chance(50),
            "repo": {
                "name": format!("{}/{}", rng.pick(USERS), slug(rng)),
                "type": rng.pick(&["model", "dataset", "space"]),
            },
            "discussion": {
                "num": rng.range(1, 5000),
                "title": title(rng),
                "status": rng.pick(&["draft", "open", "closed", "merged"]),
                "id": hex_id(rng),
                "isPullRequest": rng.chance(40),
                "participating": participants(rng),
            },
        }),
        2 => json!({
            "type": "post",
            "updatedAt": timestamp(rng),
            "read": rng.chance(50),
            "post": {
                "id": hex_id(rng),
                "slug": rng.range(100_000_000_000_000, 999_999_999_999_999).to_string(),
                "authorName": rng.pick(USERS),
                "title": title(rng),
                "participating": participants(rng),
            },
        }),
        _ => {
            let mut blog = json!({
                "id": hex_id(rng),
                "slug": slug(rng),
                "title": title(rng),
                "canonical": rng.chance(20),
                "participating": participants(rng),
            });
            if rng.chance(80) {
                blog["authorName"] = json!(rng.pick(USERS));
            }
            json!({
                "type": "community_blog",
                "updatedAt": timestamp(rng),
                "read": rng.chance(50),
                "blog": blog,
            })
        }
    };
    if rng.chance(70) {
        value["discussionEventId"] = json!(hex_id(rng));
    }
    value
}

/// A `NotificationList` page of `count` notifications, as the hub would send it.
pub fn notification_list(count: usize, seed: u64) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let notifications: Vec<Value> = (0..count)
        .map(|index| notification(&mut rng, index))
        .collect();
    let unread = notifications
        .iter()
        .filter(|notification| notification["read"] == json!(false))
        .count();
    let list = json!({
        "notifications": notifications,
        "count": { "view": count, "unread": unread, "all": count },
        "start": 0,
    });
    serde_json::to_vec(&list).expect("a serde_json::Value always serializes")
}

/// A `discussion.comment` delivery: the documented fields and some the spec leaves open, as the
/// hub sends them (about 1.5 KB).
pub fn webhook_payload() -> Vec<u8> {
    let payload = json!({
        "event": { "action": "create", "scope": "discussion.comment" },
        "repo": {
            "type": "model",
            "name": "acme/bert-tiny",
            "id": "6729a1f0c3d4e5f6a7b8c90e",
            "private": false,
            "headSha": "4f3a2b1c0d9e8f7a6b5c4d3e2f1a0b9c8d7e6f5a",
            "url": {
                "web": "https://hub.example.com/acme/bert-tiny",
                "api": "https://hub.example.com/api/models/acme/bert-tiny",
            },
            "owner": { "id": "5f1e2d3c4b5a69788796a5b5" },
            "tags": ["text-classification", "pytorch", "safetensors", "en"],
        },
        "discussion": {
            "id": "6729a1f0c3d4e5f6a7b8c904",
            "title": "Add safetensors weights",
            "num": 12,
            "status": "open",
            "isPullRequest": true,
            "isPullRequestMergeable": true,
            "changes": { "base": "refs/heads/main" },
            "url": {
                "web": "https://hub.example.com/acme/bert-tiny/discussions/12",
                "api": "https://hub.example.com/api/models/acme/bert-tiny/discussions/12",
            },
            "author": { "id": "5f1e2d3c4b5a69788796a5b4" },
        },
        "comment": {
            "id": "6729a1f0c3d4e5f6a7b8c90f",
            "content": "Looks good to me. The converted weights load with the same logits as the \
                        pickle checkpoint on the evaluation set; merging once the model card \
                        mentions the new format.",
            "hidden": false,
            "url": {
                "web": "https://hub.example.com/acme/bert-tiny/discussions/12#6729a1f0c3d4e5f6a7b8c90f",
            },
            "author": { "id": "5f1e2d3c4b5a69788796a5b5" },
        },
        "webhook": { "id": "6729a1f0c3d4e5f6a7b8c90a", "version": 3 },
    });
    serde_json::to_vec(&payload).expect("a serde_json::Value always serializes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_decode_into_the_generated_types_with_every_kind() {
        let bytes = notification_list(400, 7);
        let list: hub_api::types::NotificationList =
            serde_json::from_slice(&bytes).expect("a valid page");
        assert_eq!(list.notifications.len(), 400);
        // The fifth slot counts kinds this bench does not know (an `Unknown` notification, or a
        // kind a newer spec adds): the match must not be exhaustive, or a spec change would
        // break the workspace build.
        let mut kinds = [0; 5];
        for notification in &list.notifications {
            use hub_api::types::Notification as N;
            kinds[match notification {
                N::Paper(_) => 0,
                N::Repo(_) => 1,
                N::Post(_) => 2,
                N::CommunityBlog(_) => 3,
                _ => 4,
            }] += 1;
        }
        assert_eq!(kinds, [100, 100, 100, 100, 0]);
    }

    #[test]
    fn the_payload_is_a_valid_delivery() {
        let payload: hub_api::types::WebhookPayload =
            serde_json::from_slice(&webhook_payload()).expect("a valid payload");
        assert_eq!(payload.event.action, "create");
    }

    #[test]
    fn generation_is_deterministic() {
        assert_eq!(notification_list(10, 1), notification_list(10, 1));
        assert_ne!(notification_list(10, 1), notification_list(10, 2));
    }
}
