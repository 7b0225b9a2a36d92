//! The networks built into the binary: every `eval-tables/nets/*.nnue` at build time.

use once_cell::sync::Lazy;

use crate::engine::nnue::{NetFile, Network};
use crate::rules::variant::VariantDef;

include!(concat!(env!("OUT_DIR"), "/built_in_nets.rs"));

/// The built-in files, parsed: a file that does not parse or fit its games is left out
/// with a warning (the tests require every one to be good).
static PARSED: Lazy<Vec<(&'static str, NetFile)>> = Lazy::new(|| {
    files()
        .into_iter()
        .filter_map(|(name, checked)| match checked {
            Ok(file) => Some((name, file)),
            Err(e) => {
                tracing::warn!("built-in net {name}: {e}");
                None
            }
        })
        .collect()
});

/// The built-in network for `def`'s game, if one names it.
pub fn for_game(def: &VariantDef) -> Option<Network> {
    PARSED
        .iter()
        .find_map(|(name, file)| Network::for_game(file, def, &format!("built-in {name}")).ok())
}

/// The names of the built-in files, each parsed and checked against its games.
pub fn files() -> Vec<(&'static str, Result<NetFile, String>)> {
    BUILT_IN_FILES
        .iter()
        .map(|(name, bytes)| {
            let checked = NetFile::parse(bytes)
                .and_then(|f| Network::check_games(&f).map(|_| f))
                .map_err(|e| e.to_string());
            (*name, checked)
        })
        .collect()
}
