//! The hub's 23 areas (the operations' tags) and the path shapes under each, in the order operations are drawn from
//! them: round-robin over the areas, so that any prefix of the list (a smaller synthetic spec)
//! still covers every area.

/// One area of the hub: the path shapes under it, relative to `/api`.
struct Area {
    /// The operations' tag.
    name: &'static str,
    shapes: &'static [&'static str],
}

/// The suffixes every repository kind (`models`, `datasets`, `spaces`) has under
/// `/api/{kind}/{namespace}/{repo}`.
const REPO_SUFFIXES: &[&str] = &[
    "",
    "/tree/{rev}",
    "/tree/{rev}/{path}",
    "/revision/{rev}",
    "/commits/{rev}",
    "/commit/{rev}",
    "/refs",
    "/branch/{rev}",
    "/tag/{rev}",
    "/discussions",
    "/discussions/{num}",
    "/discussions/{num}/comment",
    "/discussions/{num}/status",
    "/settings",
    "/likers",
    "/paths-info/{rev}",
    "/compare/{compare}",
    "/super-squash/{rev}",
    "/resource-group",
    "/lfs-files",
    "/lfs-files/batch",
    "/xet-read-token/{rev}",
    "/preupload/{rev}",
    "/treesize/{rev}/{path}",
    "/scan",
    "/jwt",
    "/notebook/{rev}/{path}",
];

const AREAS: &[Area] = &[
    Area {
        name: "models",
        shapes: &[
            "/models",
            "/models-tags-by-type",
            "/models/{namespace}/{repo}*",
        ],
    },
    Area {
        name: "datasets",
        shapes: &[
            "/datasets",
            "/datasets-tags-by-type",
            "/datasets/{namespace}/{repo}*",
        ],
    },
    Area {
        name: "spaces",
        shapes: &[
            "/spaces",
            "/spaces/{namespace}/{repo}*",
            "/spaces/{namespace}/{repo}/secrets",
            "/spaces/{namespace}/{repo}/variables",
            "/spaces/{namespace}/{repo}/hardware",
            "/spaces/{namespace}/{repo}/sleeptime",
            "/spaces/{namespace}/{repo}/restart",
            "/spaces/{namespace}/{repo}/logs/{logType}",
            "/spaces/{namespace}/{repo}/metrics",
        ],
    },
    Area {
        name: "collections",
        shapes: &[
            "/collections",
            "/collections/{namespace}/{slug}",
            "/collections/{namespace}/{slug}/items",
            "/collections/{namespace}/{slug}/items/{itemId}",
            "/collections/{namespace}/{slug}/items/batch",
            "/collections/{namespace}/{slug}/upvote",
        ],
    },
    Area {
        name: "papers",
        shapes: &[
            "/papers/search",
            "/papers/{paperId}",
            "/papers/{paperId}/comment",
            "/papers/{paperId}/comment/{commentId}/reply",
            "/papers/{paperId}/upvote",
            "/papers/index",
        ],
    },
    Area {
        name: "daily-papers",
        shapes: &[
            "/daily_papers",
            "/daily_papers/{date}",
            "/daily_papers/submit",
        ],
    },
    Area {
        name: "posts",
        shapes: &[
            "/posts",
            "/posts/{username}/{postSlug}",
            "/posts/{username}/{postSlug}/comment",
            "/posts/{username}/{postSlug}/reaction",
            "/posts/{username}/{postSlug}/comment/{commentId}/reply",
        ],
    },
    Area {
        name: "organizations",
        shapes: &[
            "/organizations/{name}/overview",
            "/organizations/{name}/members",
            "/organizations/{name}/members/{username}/role",
            "/organizations/{name}/audit-log",
            "/organizations/{name}/resource-groups",
            "/organizations/{name}/resource-groups/{groupId}",
            "/organizations/{name}/resource-groups/{groupId}/users",
            "/organizations/{name}/scim/v2/Users",
            "/organizations/{name}/scim/v2/Users/{userId}",
            "/organizations/{name}/billing/usage",
        ],
    },
    Area {
        name: "users",
        shapes: &[
            "/users/{username}/overview",
            "/users/{username}/likes",
            "/users/{username}/followers",
            "/users/{username}/following",
            "/users/{username}/socials",
        ],
    },
    Area {
        name: "notifications",
        shapes: &[
            "/notifications",
            "/notifications/read",
            "/notifications/{notificationId}",
            "/notifications/settings",
        ],
    },
    Area {
        name: "settings",
        shapes: &[
            "/settings/webhooks",
            "/settings/webhooks/{webhookId}",
            "/settings/webhooks/{webhookId}/{action}",
            "/settings/tokens",
            "/settings/tokens/{tokenId}",
            "/settings/notifications",
            "/settings/mcp",
            "/settings/billing/usage",
        ],
    },
    Area {
        name: "inference-endpoints",
        shapes: &[
            "/inference-endpoints/{namespace}",
            "/inference-endpoints/{namespace}/{name}",
            "/inference-endpoints/{namespace}/{name}/pause",
            "/inference-endpoints/{namespace}/{name}/resume",
            "/inference-endpoints/{namespace}/{name}/scale-to-zero",
            "/inference-endpoints/{namespace}/{name}/logs",
            "/inference-endpoints/{namespace}/{name}/metrics/{metric}",
        ],
    },
    Area {
        name: "jobs",
        shapes: &[
            "/jobs/{namespace}",
            "/jobs/{namespace}/{jobId}",
            "/jobs/{namespace}/{jobId}/cancel",
            "/jobs/{namespace}/{jobId}/logs",
            "/jobs/{namespace}/{jobId}/metrics",
            "/jobs/hardware",
        ],
    },
    Area {
        name: "scheduled-jobs",
        shapes: &[
            "/scheduled-jobs/{namespace}",
            "/scheduled-jobs/{namespace}/{scheduledJobId}",
            "/scheduled-jobs/{namespace}/{scheduledJobId}/suspend",
            "/scheduled-jobs/{namespace}/{scheduledJobId}/resume",
        ],
    },
    Area {
        name: "blog",
        shapes: &[
            "/blog",
            "/blog/{slug}",
            "/blog/{slug}/comment",
            "/blog/{slug}/upvote",
        ],
    },
    Area {
        name: "docs",
        shapes: &["/docs", "/docs/search", "/docs/{library}/{page}"],
    },
    Area {
        name: "billing",
        shapes: &[
            "/billing/usage",
            "/billing/usage/live",
            "/billing/payment-methods",
            "/billing/invoices/{invoiceId}",
        ],
    },
    Area {
        name: "sql-console",
        shapes: &[
            "/sql-console/embed/{embedId}",
            "/sql-console/{namespace}/{repo}/queries",
            "/sql-console/{namespace}/{repo}/queries/{queryId}",
        ],
    },
    Area {
        name: "resolve-cache",
        shapes: &[
            "/resolve-cache/models/{namespace}/{repo}/{rev}/{path}",
            "/resolve-cache/datasets/{namespace}/{repo}/{rev}/{path}",
            "/resolve-cache/spaces/{namespace}/{repo}/{rev}/{path}",
        ],
    },
    Area {
        name: "buckets",
        shapes: &[
            "/buckets/{namespace}",
            "/buckets/{namespace}/{bucket}",
            "/buckets/{namespace}/{bucket}/objects",
            "/buckets/{namespace}/{bucket}/objects/{key}",
            "/buckets/{namespace}/{bucket}/cors",
        ],
    },
    Area {
        name: "repos",
        shapes: &[
            "/repos/create",
            "/repos/move",
            "/repos/{kind}/{namespace}/{repo}/access-requests",
            "/repos/{kind}/{namespace}/{repo}/access-requests/{action}",
            "/repos/{kind}/{namespace}/{repo}/duplicate",
        ],
    },
    Area {
        name: "discussions",
        shapes: &[
            "/discussions/{discussionId}/reactions",
            "/discussions/{discussionId}/pin",
            "/discussions/{discussionId}/events",
        ],
    },
    Area {
        name: "auth",
        shapes: &[
            "/whoami-v2",
            "/oauth/userinfo",
            "/oauth/token",
            "/oauth/apps/{clientId}",
            "/mcp/servers",
        ],
    },
];

/// How many areas there are (the hub has 23).
pub const AREA_COUNT: usize = 23;

/// Every path shape of the hub, `*` expanded to the repository suffixes, drawn round-robin
/// over the areas. Paths are absolute (`/api/...`).
pub(crate) fn shapes() -> Vec<(&'static str, String)> {
    let per_area: Vec<Vec<(&'static str, String)>> = AREAS
        .iter()
        .map(|area| {
            area.shapes
                .iter()
                .flat_map(|shape| match shape.strip_suffix('*') {
                    Some(base) => REPO_SUFFIXES
                        .iter()
                        .map(|suffix| (area.name, format!("/api{base}{suffix}")))
                        .collect(),
                    None => vec![(area.name, format!("/api{shape}"))],
                })
                .collect()
        })
        .collect();
    let longest = per_area.iter().map(Vec::len).max().unwrap_or(0);
    (0..longest)
        .flat_map(|row| {
            per_area
                .iter()
                .filter_map(move |paths| paths.get(row).cloned())
        })
        .collect()
}

/// The path parameters of `path`, in order.
pub(crate) fn parameters(path: &str) -> Vec<&str> {
    path.split('/')
        .filter_map(|segment| segment.strip_prefix('{')?.strip_suffix('}'))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn there_are_23_areas_and_no_duplicate_shape() {
        assert_eq!(AREAS.len(), AREA_COUNT);
        let all = shapes();
        let unique: std::collections::BTreeSet<_> = all.iter().map(|(_, path)| path).collect();
        assert_eq!(unique.len(), all.len());
    }
}
