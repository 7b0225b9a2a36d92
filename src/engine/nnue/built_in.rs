//! The networks built into the binary: every `eval-tables/nets/*.nnue` at build time.

use crate::engine::nnue::{NetFile, Network};
use crate::rules::variant::VariantDef;

include!(concat!(env!("OUT_DIR"), "/built_in_nets.rs"));

/// The built-in network for `def`'s game, if one names it. Only the files whose header
/// names the game are parsed, so a game does not hold every other game's weights.
pub fn for_game(def: &VariantDef) -> Option<Network> {
    BUILT_IN_FILES
        .iter()
        .filter(|(_, bytes)| games_of(bytes).iter().any(|g| g == def.name))
        .find_map(|(name, bytes)| match NetFile::parse(bytes) {
            Ok(file) => Network::for_game(&file, def, &format!("built-in {name}")).ok(),
            Err(e) => {
                tracing::warn!("built-in net {name}: {e}");
                None
            }
        })
}

/// The games each built-in file's header names (empty for a file whose header does not
/// read), without parsing the weights.
pub fn games_by_file() -> Vec<Vec<String>> {
    BUILT_IN_FILES
        .iter()
        .map(|(_, bytes)| games_of(bytes))
        .collect()
}

fn games_of(bytes: &[u8]) -> Vec<String> {
    NetFile::games_of(bytes).unwrap_or_default()
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
