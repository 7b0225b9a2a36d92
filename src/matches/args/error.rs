//! What is wrong with a `sako match` command line, and its one-line message.

use super::USAGE;
use crate::rules::variant::all_variants;

/// What is wrong with a `sako match` command line. `Display` gives the one-line message
/// the CLI prints after `sako: `.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgsError {
    /// No words after `sako match`: the message ends with the usage.
    NoArguments,
    /// A word before the first option.
    Stray(String),
    /// An option sako match does not know.
    UnknownOption(String),
    /// `-fcp`, `-scp` or `-both`.
    OldSyntax(String),
    /// An engine option sako match does not know.
    UnknownEngineOption(String),
    /// An engine option cutechess has and sako match has not (`conf`, `book`, ...).
    UnsupportedEngineOption(String),
    /// An engine option given without `=VALUE`.
    EngineOptionNeedsValue(String),
    /// An option given without its value.
    MissingValue(String),
    /// An option given more than its one value.
    TooManyValues {
        /// The option, with its dash.
        option: String,
        /// The values, joined by spaces.
        values: String,
    },
    /// A word that is not one of an option's `key=value` settings.
    UnexpectedWord {
        /// The option, with its dash.
        option: String,
        /// The word.
        word: String,
        /// The keys the option takes.
        allowed: &'static [&'static str],
    },
    /// A value that does not parse: `bad value for WHAT: 'TEXT'`.
    BadValue {
        /// The option or key.
        what: String,
        /// The value as written.
        text: String,
        /// What was expected, if the message says it.
        expected: Option<&'static str>,
    },
    /// A word that is not one of a few choices: `WHAT 'TEXT' (CHOICES)`.
    BadChoice {
        /// What the word is, e.g. `unknown protocol`, `-openings: bad format`.
        what: &'static str,
        /// The word as written.
        text: String,
        /// The choices (or the expected form).
        choices: &'static str,
    },
    /// A `tc=` that does not parse.
    BadTimeControl(String),
    /// A `-variant` sako does not know.
    UnknownVariant(String),
    /// A `-tournament` other than two-engine round-robin or gauntlet.
    Tournament(String),
    /// Not exactly two `-engine` options (the number given).
    EngineCount(usize),
    /// An engine (by name) with no time control and no node or depth limit.
    NoTimeControl(String),
    /// An XBoard engine (by name) with a node limit.
    NodesNeedUci(String),
    /// A setting that breaks its option's rule; the text says which.
    Invalid(&'static str),
}

impl std::fmt::Display for ArgsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ArgsError::NoArguments => {
                write!(f, "no match arguments given\n\n{}", USAGE.trim_end())
            }
            ArgsError::Stray(word) => write!(f, "unexpected '{word}' before any option"),
            ArgsError::UnknownOption(opt) => {
                write!(f, "unknown option '{opt}' (sako match -help lists them)")
            }
            ArgsError::OldSyntax(opt) => write!(
                f,
                "{opt} is the old cutechess syntax: use -engine (first, second) and -each (both)"
            ),
            ArgsError::UnknownEngineOption(key) => write!(f, "unknown engine option '{key}'"),
            ArgsError::UnsupportedEngineOption(key) => {
                write!(f, "engine option '{key}' is not supported by sako match")
            }
            ArgsError::EngineOptionNeedsValue(key) => {
                write!(f, "engine option '{key}' needs a value ({key}=...)")
            }
            ArgsError::MissingValue(option) => write!(f, "{option} needs a value"),
            ArgsError::TooManyValues { option, values } => {
                write!(f, "{option} takes one value, not '{values}'")
            }
            ArgsError::UnexpectedWord {
                option,
                word,
                allowed,
            } => {
                let keys: Vec<String> = allowed.iter().map(|a| format!("{a}=...")).collect();
                write!(f, "{option}: unexpected '{word}' (expected {})", keys.join(" "))
            }
            ArgsError::BadValue {
                what,
                text,
                expected,
            } => {
                write!(f, "bad value for {what}: '{text}'")?;
                match expected {
                    Some(e) => write!(f, " ({e})"),
                    None => Ok(()),
                }
            }
            ArgsError::BadChoice {
                what,
                text,
                choices,
            } => write!(f, "{what} '{text}' ({choices})"),
            ArgsError::BadTimeControl(text) => write!(
                f,
                "bad time control '{text}' (expected moves/time+increment, e.g. 40/60+0.5 or 5+0.05)"
            ),
            ArgsError::UnknownVariant(name) => {
                let names: Vec<&str> = all_variants().iter().map(|v| v.name).collect();
                write!(f, "unknown variant '{name}' (one of: {})", names.join(", "))
            }
            ArgsError::Tournament(kind) => {
                write!(f, "-tournament {kind}: only two-engine matches are supported")
            }
            ArgsError::EngineCount(n) => {
                write!(f, "a match needs exactly two -engine options, not {n}")
            }
            ArgsError::NoTimeControl(name) => write!(
                f,
                "engine {name} has no time control: give tc=, st=, nodes= or depth="
            ),
            ArgsError::NodesNeedUci(name) => write!(
                f,
                "engine {name}: nodes= needs proto=uci (XBoard has no node limit; use depth= or st=)"
            ),
            ArgsError::Invalid(text) => f.write_str(text),
        }
    }
}

impl std::error::Error for ArgsError {}
