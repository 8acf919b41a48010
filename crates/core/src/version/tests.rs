//! Version strings Unity writes, and malformed ones.

use super::*;

/// (text, major, minor, patch, release, number, china, custom)
type Row = (
    &'static str,
    u16,
    u16,
    u16,
    Release,
    u16,
    Option<u16>,
    &'static str,
);

const REAL: &[Row] = &[
    ("2019.4.0f1", 2019, 4, 0, Release::Final, 1, None, ""),
    ("5.3.8p2", 5, 3, 8, Release::Patch, 2, None, ""),
    ("2023.1.0a16", 2023, 1, 0, Release::Alpha, 16, None, ""),
    ("2022.2.0b7", 2022, 2, 0, Release::Beta, 7, None, ""),
    ("6000.0.36f1", 6000, 0, 36, Release::Final, 1, None, ""),
    ("6000.0.58f2", 6000, 0, 58, Release::Final, 2, None, ""),
    ("3.5.7f6", 3, 5, 7, Release::Final, 6, None, ""),
    ("4.6.1f1", 4, 6, 1, Release::Final, 1, None, ""),
    ("2020.3.26f1c1", 2020, 3, 26, Release::Final, 1, Some(1), ""),
    ("2021.3.8f1c1", 2021, 3, 8, Release::Final, 1, Some(1), ""),
    ("2022.3.10f1c2", 2022, 3, 10, Release::Final, 1, Some(2), ""),
    ("2018.4.36c1", 2018, 4, 36, Release::China, 1, None, ""),
    ("2017.1.0x2", 2017, 1, 0, Release::Experimental, 2, None, ""),
    (
        "6000.0.50f1-uum-100966-branch1",
        6000,
        0,
        50,
        Release::Final,
        1,
        None,
        "uum-100966-branch1",
    ),
];

#[test]
fn every_form_unity_writes_parses_and_prints_as_written() {
    for &(text, major, minor, patch, release, number, china, custom) in REAL {
        let v: UnityVersion = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(
            (v.major, v.minor, v.patch, v.release, v.number, v.china),
            (major, minor, patch, release, number, china),
            "{text}"
        );
        assert_eq!(v.custom, custom, "{text}");
        assert_eq!(v.to_string(), text);
        // Layouts are picked by major.minor.patch and release, never by the China suffix.
        assert_eq!(v.layouts().version_tuple(), (major, minor, patch), "{text}");
        assert_eq!(v.layouts().trailing_data, "", "{text}");
    }
}

#[test]
fn second_lines_and_padding_are_ignored() {
    for text in [
        "2020.2.2f1\n2",
        " 2021.3.5f1 ",
        "2020.3.26f1c1\r\n",
        "5.6.3p1\0junk",
    ] {
        let v: UnityVersion = text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"));
        assert!(v.major >= 5, "{text:?}");
    }
    assert_eq!(
        "2020.3.26f1c1\n"
            .parse::<UnityVersion>()
            .unwrap()
            .to_string(),
        "2020.3.26f1c1"
    );
}

#[test]
fn stripped_and_malformed_strings_are_refused() {
    for text in ["", " ", "\n", "0.0.0", "0.0.0f1", "0.0.0\n"] {
        assert_eq!(
            text.parse::<UnityVersion>(),
            Err(VersionError::Stripped(text.into())),
            "{text:?}"
        );
    }
    for text in [
        "2020.3",
        "2020.3.26",
        "2020.3.26f",
        "2020.3.26q1",
        "2020.3.26f1c",
        "2020.3.26f1d1",
        "2020.3.26f1c1c1",
        "2020.3.26f1-",
        "2020..26f1",
        "2020.3.x",
        "99999.1.1f1",
        "v2020.3.26f1",
        "2020.3.26f1 extra",
        "unity",
        "5.x.x",
    ] {
        assert_eq!(
            text.parse::<UnityVersion>(),
            Err(VersionError::NotAVersion(text.into())),
            "{text:?}"
        );
    }
}

#[test]
fn a_written_version_wins_over_every_fallback() {
    let r = resolve("2020.3.26f1c1", Some("2019.4.0f1"), Some("2021.3.8f1"));
    assert_eq!(r.version.to_string(), "2020.3.26f1c1");
    assert_eq!(r.assumed, None);
}

#[test]
fn stripped_versions_name_the_fallback_used() {
    let r = resolve("0.0.0", Some("2020.3.26f1c1"), Some("2021.3.8f1"));
    assert_eq!(r.version.to_string(), "2020.3.26f1c1");
    assert_eq!(
        r.assumed,
        Some((
            VersionError::Stripped("0.0.0".into()),
            FallbackSource::Given
        ))
    );

    let r = resolve("", None, Some("2021.3.8f1c1"));
    assert_eq!(r.version.to_string(), "2021.3.8f1c1");
    assert_eq!(
        r.assumed,
        Some((
            VersionError::Stripped(String::new()),
            FallbackSource::Container
        ))
    );

    // A stripped header version is no better than none.
    let r = resolve("garbage", None, Some("0.0.0"));
    assert_eq!(r.version.to_string(), FALLBACK);
    assert_eq!(
        r.assumed,
        Some((
            VersionError::NotAVersion("garbage".into()),
            FallbackSource::Default
        ))
    );
    let (why, source) = r.assumed.unwrap();
    assert_eq!(
        format!("Unity version {why}; assuming {}, {source}", r.version),
        "Unity version is not a version string (\"garbage\"); assuming 2022.3.0f1, clipscope's default"
    );
}
