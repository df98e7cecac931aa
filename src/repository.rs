//! [`Repository`]: one value naming a repository on the hub, taken by every call about one
//! (the storage-token call, the provider, the `hub` command).

use std::fmt;
use std::str::FromStr;

use crate::types::{RepoType, StorageRepoType};
use crate::{Error, Result};

/// A repository on the hub: its type, its id `<namespace>/<name>`, and optionally a revision
/// (a branch, tag or commit).
///
/// Its type is the generated [`RepoType`], the one repository-type enum of this crate (the
/// notification filter takes it too). The constructors take the id as given; a call checks it
/// (and whether the call supports the type) before sending anything and refuses a bad one with
/// [`Error::Validation`] naming `repository.id`, `repository.revision` or `repository.kind`.
///
/// ```
/// use hub_api::Repository;
/// use hub_api::types::RepoType;
///
/// let weights = Repository::model("acme/bert-tiny").at_revision("v1");
/// assert_eq!(weights.kind(), &RepoType::Model);
/// assert_eq!(weights.id(), "acme/bert-tiny");
/// assert_eq!(weights.revision(), Some("v1"));
///
/// // As text: `[<type>s/]<namespace>/<name>[@<revision>]`, a model when no type is given.
/// let squad: Repository = "datasets/acme/squad@refs/pr/5".parse()?;
/// assert_eq!(squad, Repository::dataset("acme/squad").at_revision("refs/pr/5"));
/// assert_eq!(squad.to_string(), "datasets/acme/squad@refs/pr/5");
/// assert_eq!("acme/bert-tiny".parse::<Repository>()?, Repository::model("acme/bert-tiny"));
/// # Ok::<(), hub_api::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Repository {
    kind: RepoType,
    id: String,
    revision: Option<String>,
}

impl Repository {
    /// The revision calls use when the repository names none: the default branch, `main`.
    pub const DEFAULT_REVISION: &'static str = "main";

    /// The repository `id` (`<namespace>/<name>`) of type `kind`, at no particular revision.
    pub fn new(kind: RepoType, id: impl Into<String>) -> Self {
        Self {
            kind,
            id: id.into(),
            revision: None,
        }
    }

    /// The model repository `id` (`<namespace>/<name>`).
    pub fn model(id: impl Into<String>) -> Self {
        Self::new(RepoType::Model, id)
    }

    /// The dataset repository `id` (`<namespace>/<name>`).
    pub fn dataset(id: impl Into<String>) -> Self {
        Self::new(RepoType::Dataset, id)
    }

    /// The Space repository `id` (`<namespace>/<name>`).
    pub fn space(id: impl Into<String>) -> Self {
        Self::new(RepoType::Space, id)
    }

    /// The same repository at `revision` (a branch, tag or commit, e.g. `v1` or `refs/pr/5`).
    #[must_use]
    pub fn at_revision(mut self, revision: impl Into<String>) -> Self {
        self.revision = Some(revision.into());
        self
    }

    /// The repository's type.
    pub fn kind(&self) -> &RepoType {
        &self.kind
    }

    /// The repository's id, `<namespace>/<name>`.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The revision, if one was given (calls then use [`Repository::DEFAULT_REVISION`]).
    pub fn revision(&self) -> Option<&str> {
        self.revision.as_deref()
    }

    /// The revision calls use: the one given, else [`Repository::DEFAULT_REVISION`].
    pub(crate) fn effective_revision(&self) -> &str {
        self.revision().unwrap_or(Self::DEFAULT_REVISION)
    }

    /// The id's two parts, checked.
    pub(crate) fn namespace_and_name(&self) -> Result<(&str, &str)> {
        match self.id.split_once('/') {
            Some((namespace, name))
                if !namespace.is_empty() && !name.is_empty() && !name.contains('/') =>
            {
                Ok((namespace, name))
            }
            _ => Err(Error::validation(
                "repository.id",
                "`<namespace>/<name>`, e.g. `acme/bert-tiny`",
            )),
        }
    }

    /// The effective revision, checked.
    pub(crate) fn checked_revision(&self) -> Result<&str> {
        let revision = self.effective_revision();
        if revision.is_empty() {
            return Err(Error::validation(
                "repository.revision",
                "a branch, tag or commit (leave it out for `main`)",
            ));
        }
        Ok(revision)
    }

    /// The repository checked for the storage-token call, with its revision made explicit (so
    /// that naming `main` and naming no revision are one repository), and its type as the
    /// call's path takes it.
    pub(crate) fn for_storage(&self) -> Result<(StorageRepoType, Self)> {
        let repo_type = match self.kind {
            RepoType::Model => StorageRepoType::Model,
            RepoType::Dataset => StorageRepoType::Dataset,
            RepoType::Space => StorageRepoType::Space,
            _ => {
                return Err(Error::validation(
                    "repository.kind",
                    format!(
                        "storage tokens exist for model, dataset and space repositories, not `{}`",
                        self.kind
                    ),
                ));
            }
        };
        self.namespace_and_name()?;
        let revision = self.checked_revision()?.to_owned();
        Ok((repo_type, self.clone().at_revision(revision)))
    }
}

/// `<type>s/<namespace>/<name>`, then `@<revision>` if one was given: the form
/// [`FromStr`](Repository::from_str) reads.
impl fmt::Display for Repository {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}s/{}", self.kind, self.id)?;
        match &self.revision {
            Some(revision) => write!(f, "@{revision}"),
            None => Ok(()),
        }
    }
}

/// Reads `[<type>s/]<namespace>/<name>[@<revision>]`: `acme/bert-tiny` (a model, as on the
/// hub), `datasets/acme/squad`, `spaces/acme/demo@v2`, `acme/bert-tiny@refs/pr/5`. The type
/// is one [`RepoType`] lists, plural as in the hub's URLs (`models`, `datasets`, `spaces`, ...);
/// the revision is everything after the first `@`. Anything else is [`Error::Validation`]
/// naming `repository`.
impl FromStr for Repository {
    type Err = Error;

    fn from_str(text: &str) -> Result<Self> {
        let refused = || {
            Error::validation(
                "repository",
                "`[<type>s/]<namespace>/<name>[@<revision>]`, e.g. `datasets/acme/squad@v1`",
            )
        };
        let (path, revision) = match text.split_once('@') {
            Some((path, revision)) if !revision.is_empty() => (path, Some(revision)),
            Some(_) => return Err(refused()),
            None => (text, None),
        };
        let parts: Vec<&str> = path.split('/').collect();
        let (kind, id) = match parts.as_slice() {
            [_, _] => (RepoType::Model, path),
            [plural, _, _] => {
                let kind = plural
                    .strip_suffix('s')
                    .and_then(|singular| singular.parse::<RepoType>().ok())
                    .ok_or_else(refused)?;
                (kind, &path[plural.len() + 1..])
            }
            _ => return Err(refused()),
        };
        let repository = Self {
            kind,
            id: id.to_owned(),
            revision: revision.map(str::to_owned),
        };
        repository.namespace_and_name().map_err(|_| refused())?;
        Ok(repository)
    }
}
