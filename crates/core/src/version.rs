//! Unity version strings, as Unity writes them in serialized files, bundle and web-player
//! headers and `ProjectVersion.txt`.
//!
//! The form is `MAJOR.MINOR.PATCH` followed by a release type and number (`a` alpha, `b` beta,
//! `f` final, `p` patch, `x` experimental, `c` China: `2019.4.0f1`, `5.3.8p2`, `2023.1.0a16`,
//! `6000.0.36f1`), optionally followed by a China-release suffix (`2020.3.26f1c1`) and, for
//! custom engine builds, a `-suffix` (`6000.0.50f1-uum-100966-branch1`). A player build may
//! strip the version to `0.0.0`; that, an empty string or text that is not a version is
//! "stripped", and the reader falls back to another version (see [`resolve`]).

use std::fmt;
use std::str::FromStr;

/// Unity version assumed when a file's version is stripped and nothing better is known.
pub const FALLBACK: &str = "2022.3.0f1";

/// A Unity release type: the letter between the patch and release numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Release {
    /// `a`
    Alpha,
    /// `b`
    Beta,
    /// `f`
    Final,
    /// `p`
    Patch,
    /// `x`
    Experimental,
    /// `c` (China releases numbered on their own)
    China,
}

impl Release {
    fn from_char(c: char) -> Option<Release> {
        Some(match c {
            'a' => Release::Alpha,
            'b' => Release::Beta,
            'f' => Release::Final,
            'p' => Release::Patch,
            'x' => Release::Experimental,
            'c' => Release::China,
            _ => return None,
        })
    }

    /// The letter Unity writes.
    pub fn letter(self) -> char {
        match self {
            Release::Alpha => 'a',
            Release::Beta => 'b',
            Release::Final => 'f',
            Release::Patch => 'p',
            Release::Experimental => 'x',
            Release::China => 'c',
        }
    }

    fn rabex(self) -> rabex::UnityVersionType {
        use rabex::UnityVersionType as T;
        match self {
            Release::Alpha => T::Alpha,
            Release::Beta => T::Beta,
            Release::Final => T::Final,
            Release::Patch => T::Patch,
            Release::Experimental => T::Experimental,
            Release::China => T::China,
        }
    }
}

/// A parsed Unity version. It prints as written (China suffix and custom-build suffix kept),
/// and dereferences to the `rabex` version used to pick layouts and embedded type trees (the
/// China suffix does not change layouts).
#[derive(Clone, PartialEq)]
pub struct UnityVersion {
    pub major: u16,
    pub minor: u16,
    pub patch: u16,
    pub release: Release,
    /// The number after the release letter (`1` in `2019.4.0f1`).
    pub number: u16,
    /// The China-release number (`1` in `2020.3.26f1c1`).
    pub china: Option<u16>,
    /// A custom build's text after `-`, empty for Unity's own releases.
    pub custom: String,
    layouts: rabex::UnityVersion,
}

/// Why a version string is not usable.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VersionError {
    /// `0.0.0` (or `0.0.0` with a release) or an empty string: the build stripped it.
    #[error("is stripped ({0:?})")]
    Stripped(String),
    /// Text that is not a Unity version.
    #[error("is not a version string ({0:?})")]
    NotAVersion(String),
}

impl UnityVersion {
    /// `major.minor.patch` with release `f1`.
    pub fn new(major: u16, minor: u16, patch: u16) -> Self {
        UnityVersion::from_parts(major, minor, patch, Release::Final, 1, None, String::new())
    }

    fn from_parts(
        major: u16,
        minor: u16,
        patch: u16,
        release: Release,
        number: u16,
        china: Option<u16>,
        custom: String,
    ) -> Self {
        let layouts = rabex::UnityVersion {
            major,
            minor,
            build: patch,
            typ: release.rabex(),
            build_number: number.min(u8::MAX as u16) as u8,
            trailing_data: String::new(),
        };
        UnityVersion {
            major,
            minor,
            patch,
            release,
            number,
            china,
            custom,
            layouts,
        }
    }

    /// The version `rabex` picks layouts and embedded type trees with.
    pub fn layouts(&self) -> &rabex::UnityVersion {
        &self.layouts
    }

    /// True from `major.minor` on.
    pub fn at_least(&self, major: u16, minor: u16) -> bool {
        (self.major, self.minor) >= (major, minor)
    }
}

impl std::ops::Deref for UnityVersion {
    type Target = rabex::UnityVersion;

    fn deref(&self) -> &rabex::UnityVersion {
        &self.layouts
    }
}

impl fmt::Display for UnityVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}.{}.{}{}{}",
            self.major,
            self.minor,
            self.patch,
            self.release.letter(),
            self.number
        )?;
        if let Some(china) = self.china {
            write!(f, "c{china}")?;
        }
        if !self.custom.is_empty() {
            write!(f, "-{}", self.custom)?;
        }
        Ok(())
    }
}

impl fmt::Debug for UnityVersion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for UnityVersion {
    type Err = VersionError;

    /// Parses a version as Unity writes it. Surrounding whitespace and anything after a line
    /// break (some files append a second line) are ignored.
    fn from_str(text: &str) -> Result<Self, VersionError> {
        let line = text.split(['\n', '\0']).next().unwrap_or("").trim();
        if line.is_empty() {
            return Err(VersionError::Stripped(text.to_owned()));
        }
        let version = parse_line(line).ok_or_else(|| VersionError::NotAVersion(text.to_owned()))?;
        if version.major == 0 && version.minor == 0 && version.patch == 0 {
            return Err(VersionError::Stripped(text.to_owned()));
        }
        Ok(version)
    }
}

/// `MAJOR.MINOR.PATCH[<release><number>[c<number>]][-custom]`; `0.0.0` alone is accepted here
/// so that the caller reports it as stripped.
fn parse_line(line: &str) -> Option<UnityVersion> {
    let (main, custom) = match line.split_once('-') {
        Some((main, custom)) if !custom.is_empty() => (main, custom),
        Some(_) => return None,
        None => (line, ""),
    };
    let mut parts = main.splitn(3, '.');
    let major = number(parts.next()?)?;
    let minor = number(parts.next()?)?;
    let rest = parts.next()?;
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let patch = number(&rest[..digits])?;
    let rest = &rest[digits..];
    if rest.is_empty() {
        // Only the stripped `0.0.0` is written without a release.
        return ((major, minor, patch) == (0, 0, 0)).then(|| UnityVersion::new(0, 0, 0));
    }
    let release = Release::from_char(rest.chars().next()?)?;
    let rest = &rest[1..];
    let digits = rest
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(rest.len());
    let release_number = number(&rest[..digits])?;
    let china = match &rest[digits..] {
        "" => None,
        suffix => Some(number(suffix.strip_prefix('c')?)?),
    };
    Some(UnityVersion::from_parts(
        major,
        minor,
        patch,
        release,
        release_number,
        china,
        custom.to_owned(),
    ))
}

/// A run of ASCII digits that fits a `u16`.
fn number(digits: &str) -> Option<u16> {
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}

/// Where the version used for a file came from when its own was unusable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FallbackSource {
    /// `--unity-version` (or [`crate::workspace::OpenOptions::unity_version`]).
    Given,
    /// The bundle's or web player's header.
    Container,
    /// clipscope's default, [`FALLBACK`].
    Default,
}

impl fmt::Display for FallbackSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FallbackSource::Given => "the version given",
            FallbackSource::Container => "the version in the container's header",
            FallbackSource::Default => "clipscope's default",
        })
    }
}

/// The version to read a file with.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolved {
    pub version: UnityVersion,
    /// Set when the written version was unusable: why, and where `version` came from.
    pub assumed: Option<(VersionError, FallbackSource)>,
}

/// The version to read a file with: its `written` version when usable, else the first usable
/// of `given` (`--unity-version`), `container` (the bundle header's) and [`FALLBACK`].
pub fn resolve(written: &str, given: Option<&str>, container: Option<&str>) -> Resolved {
    let error = match written.parse::<UnityVersion>() {
        Ok(version) => {
            return Resolved {
                version,
                assumed: None,
            };
        }
        Err(e) => e,
    };
    let candidates = [
        (given, FallbackSource::Given),
        (container, FallbackSource::Container),
    ];
    let (version, source) = candidates
        .into_iter()
        .find_map(|(text, source)| Some((text?.parse().ok()?, source)))
        .unwrap_or_else(|| (default_version(), FallbackSource::Default));
    Resolved {
        version,
        assumed: Some((error, source)),
    }
}

/// [`FALLBACK`], parsed.
pub fn default_version() -> UnityVersion {
    FALLBACK
        .parse()
        .unwrap_or_else(|_| UnityVersion::new(2022, 3, 0))
}

#[cfg(test)]
mod tests;
