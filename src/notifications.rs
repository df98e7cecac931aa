//! Notifications: one page or a stream over all pages, mark-as-read and delete (for given
//! discussions or for everything matching a filter), and the notification and watch settings.
//!
//! # End of the stream
//!
//! Pages are requested with `p` = 0, 1, 2, ... The stream stops after a page when either
//! - the page is empty, or
//! - `start + notifications.len() >= count.view`, i.e. the page reached the number of
//!   notifications in the filtered view, so the next page would be empty,
//!
//! or when `p` reaches its maximum (2^53 - 1). The first rule alone would always cost one
//! extra request; the second alone would trust the counter even when it is stale. An error ends
//! the stream after it is yielded, except an [`Error::InvalidItem`]: one notification that
//! breaks the spec is yielded as that error in its place, and the stream carries on.
//!
//! # Newer hubs
//!
//! A notification kind, repository type or other value this client's spec does not list
//! arrives as the type's `Unknown` variant (see [`generated::decoding`](crate::generated::decoding)),
//! so a hub that adds one does not stop the stream; match with a wildcard arm.

use futures_core::Stream;
use futures_util::{TryStreamExt, stream};
use serde_json::json;

use crate::client::Call;
use crate::error::{Result, build_request};
use crate::partial::{Partial, send_partial};
use crate::{Client, Error, request_check, types};

/// The largest page number the hub accepts (`p`, 2^53 - 1).
pub const MAX_PAGE: u64 = 9_007_199_254_740_991;

/// The `readStatus` and `mention` filters are the generated types (one of each, shared by the
/// three operations that take the filters), re-exported here where the filter uses them.
pub use crate::types::{Mention, ReadStatus};

/// The query filters shared by listing, mark-as-read and delete. Unset fields are not sent, so
/// the hub applies its defaults.
///
/// ```
/// use hub_api::notifications::{NotificationFilter, ReadStatus};
/// let unread_on_one_repo = NotificationFilter {
///     read_status: Some(ReadStatus::Unread),
///     repo_name: Some("acme/bert-tiny".into()),
///     ..Default::default()
/// };
/// # let _ = unread_on_one_repo;
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct NotificationFilter {
    /// `readStatus`.
    pub read_status: Option<ReadStatus>,
    /// `repoType`.
    pub repo_type: Option<types::RepoType>,
    /// `repoName`, `<namespace>/<repo-name>`.
    pub repo_name: Option<String>,
    /// `postAuthor`.
    pub post_author: Option<String>,
    /// `paperId`.
    pub paper_id: Option<String>,
    /// `articleId`.
    pub article_id: Option<String>,
    /// `mention`.
    pub mention: Option<Mention>,
    /// `lastUpdate`.
    pub last_update: Option<types::Timestamp>,
}

impl NotificationFilter {
    /// Unread notifications only, nothing else filtered.
    pub fn unread() -> Self {
        Self {
            read_status: Some(ReadStatus::Unread),
            ..Self::default()
        }
    }
}

/// Which notifications mark-as-read and delete act on.
#[derive(Debug, Clone, PartialEq)]
pub enum NotificationSelection {
    /// The notifications of these discussions: for each notification, the id
    /// [`NotificationExt::discussion_id`] returns.
    Discussions(Vec<String>),
    /// Every notification matching the filter (`applyToAll=true` with the filter's query).
    AllMatching(NotificationFilter),
}

impl NotificationSelection {
    /// The notifications of the given discussions (see [`NotificationExt::discussion_id`]).
    ///
    /// ```
    /// use hub_api::notifications::{NotificationExt, NotificationSelection};
    /// # fn select(unread: &[hub_api::types::Notification]) -> NotificationSelection {
    /// NotificationSelection::discussions(unread.iter().filter_map(|n| n.discussion_id()))
    /// # }
    /// ```
    pub fn discussions<I, S>(ids: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self::Discussions(ids.into_iter().map(Into::into).collect())
    }

    /// Every notification matching `filter`.
    pub fn all_matching(filter: NotificationFilter) -> Self {
        Self::AllMatching(filter)
    }
}

/// Sets the filter's query parameters on any of the three generated builders (each operation
/// has its own builder type, with the same setter names).
macro_rules! with_filter {
    ($builder:expr, $filter:expr) => {{
        let filter: &NotificationFilter = $filter;
        let mut builder = $builder;
        if let Some(read_status) = filter.read_status {
            builder = builder.read_status(read_status);
        }
        if let Some(repo_type) = &filter.repo_type {
            builder = builder.repo_type(repo_type.clone());
        }
        if let Some(repo_name) = &filter.repo_name {
            builder = builder.repo_name(repo_name.as_str());
        }
        if let Some(post_author) = &filter.post_author {
            builder = builder.post_author(post_author.as_str());
        }
        if let Some(paper_id) = &filter.paper_id {
            builder = builder.paper_id(paper_id.as_str());
        }
        if let Some(article_id) = &filter.article_id {
            builder = builder.article_id(article_id.as_str());
        }
        if let Some(mention) = filter.mention {
            builder = builder.mention(mention);
        }
        if let Some(last_update) = &filter.last_update {
            builder = builder.last_update(last_update.clone());
        }
        builder
    }};
}

impl Client {
    /// Lists one page of notifications (`GET /api/notifications?p=<page>&...`). A notification
    /// that breaks the spec does not lose the page: it is left out of `notifications` and
    /// named in [`Partial::invalid`].
    pub async fn list_notifications(
        &self,
        filter: &NotificationFilter,
        page: u64,
    ) -> Result<Partial<types::NotificationList>> {
        let page = checked_page(page)?;
        self.check_filter(filter)?;
        let request = with_filter!(self.api().list_notifications(), filter).p(page);
        send_partial::<_, types::Notification, _>(
            self,
            Call::new("listNotifications"),
            "/notifications",
            request.send(),
        )
        .await
    }

    /// Refuses a filter value this client's spec does not list (an `Unknown` repository type
    /// taken from a response) before anything is sent.
    fn check_filter(&self, filter: &NotificationFilter) -> Result<()> {
        match &filter.repo_type {
            Some(repo_type) => request_check::check("repoType", repo_type, &self.redactor()),
            None => Ok(()),
        }
    }

    /// Every page of notifications matching `filter`, from `p` = 0 until the end (see the
    /// [module documentation](self) for how the end is detected). Empty pages are not yielded.
    pub fn notification_pages(
        &self,
        filter: NotificationFilter,
    ) -> impl Stream<Item = Result<Partial<types::NotificationList>>> + Send + 'static + use<> {
        let state = PageState {
            client: self.clone(),
            filter,
            next_page: Some(0),
        };
        stream::try_unfold(state, |mut state| async move {
            let Some(page) = state.next_page else {
                return Ok(None);
            };
            let list = state.client.list_notifications(&state.filter, page).await?;
            let sent = list.notifications.len() + list.invalid.len();
            if sent == 0 {
                tracing::debug!(page, "notifications: empty page, end of stream");
                return Ok(None);
            }
            // Counters are JSON numbers; page sizes are far below f64's exact integer range.
            let reached = list.start + sent as f64;
            state.next_page = if reached >= list.count.view || page >= MAX_PAGE {
                tracing::debug!(page, "notifications: last page");
                None
            } else {
                Some(page + 1)
            };
            Ok(Some((list, state)))
        })
    }

    /// Every notification matching `filter`, across all pages, in the hub's order. A
    /// notification that breaks the spec is yielded as [`Error::InvalidItem`] in its place and
    /// the stream carries on; any other error ends it.
    ///
    /// ```no_run
    /// use futures_util::TryStreamExt;
    /// # async fn demo(client: hub_api::Client) -> hub_api::Result<()> {
    /// let all: Vec<_> = client.notifications(Default::default()).try_collect().await?;
    /// # Ok(()) }
    /// ```
    pub fn notifications(
        &self,
        filter: NotificationFilter,
    ) -> impl Stream<Item = Result<types::Notification>> + Send + 'static + use<> {
        self.notification_pages(filter)
            .map_ok(|page| stream::iter(in_hub_order(page)))
            .try_flatten()
    }

    /// Marks the selected notifications read (`read` = true) or unread
    /// (`POST /api/notifications/mark-as-read`).
    pub async fn mark_notifications_read(
        &self,
        selection: &NotificationSelection,
        read: bool,
    ) -> Result<()> {
        let request = self.api().mark_notifications_as_read();
        if let NotificationSelection::AllMatching(filter) = selection {
            self.check_filter(filter)?;
        }
        let request = match selection {
            NotificationSelection::Discussions(ids) => {
                require_ids(ids)?;
                let body: types::MarkAsReadRequest = build_request(
                    json!({ "discussionIds": ids, "read": read }),
                    &self.redactor(),
                )?;
                request.body(body)
            }
            NotificationSelection::AllMatching(filter) => {
                let body: types::MarkAsReadRequest =
                    build_request(json!({ "read": read }), &self.redactor())?;
                with_filter!(request, filter)
                    .apply_to_all("true")
                    .body(body)
            }
        };
        self.send(Call::new("markNotificationsAsRead"), request.send())
            .await
    }

    /// Deletes the selected notifications (`DELETE /api/notifications`).
    pub async fn delete_notifications(&self, selection: &NotificationSelection) -> Result<()> {
        let request = self.api().delete_notifications();
        if let NotificationSelection::AllMatching(filter) = selection {
            self.check_filter(filter)?;
        }
        let request = match selection {
            NotificationSelection::Discussions(ids) => {
                require_ids(ids)?;
                let body: types::DeleteNotificationsRequest =
                    build_request(json!({ "discussionIds": ids }), &self.redactor())?;
                request.body(body)
            }
            NotificationSelection::AllMatching(filter) => {
                with_filter!(request, filter).apply_to_all("true")
            }
        };
        self.send(Call::new("deleteNotifications"), request.send())
            .await
    }

    /// Updates notification settings (`PATCH /api/settings/notifications`). Takes the generated
    /// request or its builder; a builder's conversion error is refused before sending.
    pub async fn update_notification_settings(
        &self,
        settings: impl Into<types::builder::NotificationSettingsRequest>,
    ) -> Result<()> {
        let settings = types::NotificationSettingsRequest::try_from(settings.into())?;
        request_check::check("request", &settings, &self.redactor())?;
        let request = self.api().update_notification_settings().body(settings);
        self.send(Call::new("updateNotificationSettings"), request.send())
            .await
    }

    /// Updates watched items (`PATCH /api/settings/watch`). Takes the generated request or its
    /// builder.
    pub async fn update_watch_settings(
        &self,
        watch: impl Into<types::builder::WatchSettingsRequest>,
    ) -> Result<()> {
        let watch = types::WatchSettingsRequest::try_from(watch.into())?;
        request_check::check("request", &watch, &self.redactor())?;
        let request = self.api().update_watch_settings().body(watch);
        self.send(Call::new("updateWatchSettings"), request.send())
            .await
    }
}

/// A page's notifications and its invalid items, each in its place in the hub's order.
fn in_hub_order(page: Partial<types::NotificationList>) -> Vec<Result<types::Notification>> {
    let Partial { value, invalid } = page;
    let mut good = value.notifications.into_iter();
    let mut bad = invalid.into_iter().peekable();
    let mut all = Vec::with_capacity(good.len() + bad.len());
    loop {
        let index = all.len();
        match bad.next_if(|item| item.index == index) {
            Some(item) => all.push(Err(Error::from(item))),
            None => match good.next() {
                Some(notification) => all.push(Ok(notification)),
                None => break,
            },
        }
    }
    // Invalid items whose index lies past the end (cannot happen; kept rather than lost).
    all.extend(bad.map(|item| Err(Error::from(item))));
    all
}

struct PageState {
    client: Client,
    filter: NotificationFilter,
    next_page: Option<u64>,
}

fn checked_page(page: u64) -> Result<i64> {
    i64::try_from(page)
        .ok()
        .filter(|_| page <= MAX_PAGE)
        .ok_or_else(|| Error::validation("p", format!("at most {MAX_PAGE}")))
}

/// Without `applyToAll` an empty id list would select nothing: refuse it rather than send a
/// request that does nothing (the hub also requires at least one id for deletion).
fn require_ids(ids: &[String]) -> Result<()> {
    if ids.is_empty() {
        return Err(Error::validation("discussionIds", "at least 1 item"));
    }
    Ok(())
}

/// What every kind of [`types::Notification`] has, read without matching on the kind.
///
/// ```
/// use hub_api::notifications::NotificationExt;
/// # fn show(notification: &hub_api::types::Notification) {
/// if let (Some(id), Some(title)) = (notification.discussion_id(), notification.title()) {
///     println!("{id} {title}");
/// }
/// # }
/// ```
///
/// # Which id marks a notification read
///
/// Mark-as-read and delete take discussion ids (`discussionIds`, see
/// [`NotificationSelection::discussions`]). [`discussion_id`](Self::discussion_id) returns, by
/// kind:
///
/// | kind | id |
/// |---|---|
/// | `repo` | `discussion.id`, the repository discussion or pull request |
/// | `paper` | `paperDiscussion.id`, the discussion on the paper page (not `paper._id`) |
/// | `post` | `post.id` |
/// | `community_blog` | `blog.id` |
///
/// A repository or paper notification names its discussion. For posts and community blog
/// articles the API description names no separate discussion id: the post's or article's `id`
/// is the only identifier the notification carries, so it is the one returned.
pub trait NotificationExt: sealed::Sealed {
    /// The id that marks this notification read or deletes it (see the table above); `None`
    /// for a kind newer than this client (`Notification::Unknown`), whose id it cannot know.
    fn discussion_id(&self) -> Option<&str>;

    /// Whether the notification has been read. For a kind newer than this client, its `read`
    /// field as sent (a field every kind has), or `false` when that is missing.
    fn is_read(&self) -> bool;

    /// When the notification was last updated; `None` for a kind newer than this client.
    fn updated_at(&self) -> Option<&types::Timestamp>;

    /// The title of the paper, discussion, post or article the notification is about; `None`
    /// for a kind newer than this client.
    fn title(&self) -> Option<&str>;
}

impl NotificationExt for types::Notification {
    fn discussion_id(&self) -> Option<&str> {
        match self {
            Self::Repo(repo) => Some(repo.discussion.id.as_str()),
            Self::Paper(paper) => Some(&paper.paper_discussion.id),
            Self::Post(post) => Some(&post.post.id),
            Self::CommunityBlog(blog) => Some(&blog.blog.id),
            _ => None,
        }
    }

    fn is_read(&self) -> bool {
        match self {
            Self::Repo(repo) => repo.read,
            Self::Paper(paper) => paper.read,
            Self::Post(post) => post.read,
            Self::CommunityBlog(blog) => blog.read,
            Self::Unknown(raw) => raw
                .get("read")
                .and_then(serde_json::Value::as_bool)
                .unwrap_or(false),
            _ => false,
        }
    }

    fn updated_at(&self) -> Option<&types::Timestamp> {
        match self {
            Self::Repo(repo) => Some(&repo.updated_at),
            Self::Paper(paper) => Some(&paper.updated_at),
            Self::Post(post) => Some(&post.updated_at),
            Self::CommunityBlog(blog) => Some(&blog.updated_at),
            _ => None,
        }
    }

    fn title(&self) -> Option<&str> {
        match self {
            Self::Repo(repo) => Some(&repo.discussion.title),
            Self::Paper(paper) => Some(&paper.paper.title),
            Self::Post(post) => Some(&post.post.title),
            Self::CommunityBlog(blog) => Some(&blog.blog.title),
            _ => None,
        }
    }
}

/// Keeps [`NotificationExt`] implemented by the generated notification only, so that methods
/// can be added to it without breaking anyone.
mod sealed {
    pub trait Sealed {}
    impl Sealed for crate::types::Notification {}
}
