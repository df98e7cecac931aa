//! `hub_api::Repository`, the one value naming a repository: its constructors and accessors, the
//! text form `[<type>s/]<namespace>/<name>[@<revision>]` both ways, and what the text form
//! refuses. (What the storage calls do with it is in `storage_tokens.rs`.)

use hub_api::types::RepoType;
use hub_api::{Error, Repository};

#[test]
fn constructors_name_the_type_and_at_revision_adds_one() {
    for (repository, kind) in [
        (Repository::model("acme/bert"), RepoType::Model),
        (Repository::dataset("acme/bert"), RepoType::Dataset),
        (Repository::space("acme/bert"), RepoType::Space),
        (
            Repository::new(RepoType::Kernel, "acme/bert"),
            RepoType::Kernel,
        ),
    ] {
        assert_eq!(repository.kind(), &kind);
        assert_eq!(repository.id(), "acme/bert");
        assert_eq!(repository.revision(), None);
        let pinned = repository.clone().at_revision("v1");
        assert_eq!(pinned.revision(), Some("v1"));
        assert_ne!(pinned, repository);
    }
    assert_eq!(Repository::DEFAULT_REVISION, "main");
}

#[test]
fn the_text_form_reads_and_prints_back() {
    for (text, expected, printed) in [
        (
            "acme/bert-tiny",
            Repository::model("acme/bert-tiny"),
            "models/acme/bert-tiny",
        ),
        (
            "models/acme/bert-tiny@v1",
            Repository::model("acme/bert-tiny").at_revision("v1"),
            "models/acme/bert-tiny@v1",
        ),
        (
            "datasets/acme/squad@refs/pr/5",
            Repository::dataset("acme/squad").at_revision("refs/pr/5"),
            "datasets/acme/squad@refs/pr/5",
        ),
        (
            "spaces/acme/demo",
            Repository::space("acme/demo"),
            "spaces/acme/demo",
        ),
        (
            "buckets/acme/logs",
            Repository::new(RepoType::Bucket, "acme/logs"),
            "buckets/acme/logs",
        ),
        // A namespace that happens to be called `models`: two parts are an id.
        (
            "models/bert",
            Repository::model("models/bert"),
            "models/models/bert",
        ),
    ] {
        let parsed: Repository = text
            .parse()
            .unwrap_or_else(|error| panic!("{text}: {error}"));
        assert_eq!(parsed, expected, "{text}");
        assert_eq!(parsed.to_string(), printed, "{text}");
        assert_eq!(
            printed.parse::<Repository>().ok(),
            Some(expected),
            "{printed}"
        );
    }
}

#[test]
fn text_that_names_no_repository_is_refused_naming_repository() {
    for text in [
        "",
        "bert",
        "acme/",
        "/bert",
        "acme/bert@",
        "notebooks/acme/bert",
        "model/acme/bert",
        "models/acme/bert/extra",
        "models//bert",
    ] {
        let error = text.parse::<Repository>().err();
        assert!(
            matches!(&error, Some(Error::Validation { field, .. }) if field == "repository"),
            "{text:?}: {error:?}"
        );
    }
}
