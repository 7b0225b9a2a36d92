//! `sako match` against other people's engines, where they are installed (Debian's
//! `fairymax` and `fairy-stockfish` in /usr/games; when one is missing the test fails if
//! `CI` is set and otherwise passes with a visible `match_peers::<test> SKIPPED ...` line,
//! see `common::peer_missing`): Fairy-Max in Great Shatranj over XBoard (it has no `setboard`, so the
//! openings go in through edit mode), Fairy-Stockfish in chess and in its built-in
//! `shatar` (Berse letter `j`, translated with `pieces=Q:J`) over UCI. sako must not
//! foul, and every game must replay legally and end with a reason.

use std::path::{Path, PathBuf};

use sako::matches::pgn::{parse_pgn, PgnGame};
use sako::Game;

use crate::common;

use common::{fresh_temp_dir, run_match, words};

const SAKO: &str = env!("CARGO_BIN_EXE_sako");

/// `/usr/games/<name>`, or [`common::peer_missing`] (a failure in CI) for `test`.
fn peer(test: &str, name: &str) -> Option<PathBuf> {
    let p = Path::new("/usr/games").join(name);
    if p.exists() {
        Some(p)
    } else {
        common::peer_missing(&format!("match_peers::{test}"), &p.display().to_string());
        None
    }
}

fn play(name: &str, variant: &str, peer_args: &str, sako_args: &str, each: &str) {
    let dir = fresh_temp_dir(&format!("peers-{name}"));
    let pgn = dir.join("games.pgn");
    let openings = common::data_path(&format!("openings/{variant}.epd"));
    let args = format!(
        "-engine name=sako cmd={SAKO} {sako_args} -engine name=peer {peer_args} -each {each} \
         -variant {variant} -games 2 -repeat -recover -openings file={} format=epd order=random \
         -srand 2 -pgnout {}",
        openings.display(),
        pgn.display()
    );
    let stdout = run_match(&words(&args));
    assert!(stdout.contains("fouls: sako: none;"), "{stdout}");
    for (g, mut game) in replayed_games(variant, &pgn, 2) {
        assert!(g.comments.last().is_some_and(|c| !c.is_empty()));
        if g.tag("Termination") == Some("normal")
            && !g.comments.last().is_some_and(|c| c.ends_with("resigns"))
        {
            assert_eq!(
                game.outcome().map(|o| o.result.pgn()),
                Some(g.result.as_str())
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn fairymax_great_over_xboard() {
    if let Some(fm) = peer("fairymax_great_over_xboard", "fairymax") {
        play(
            "fairymax",
            "great",
            &format!("cmd={} proto=xboard", fm.display()),
            "arg=xboard proto=xboard",
            "depth=4 timeout=60",
        );
    }
}

#[test]
fn fairy_stockfish_chess_over_uci() {
    if let Some(fsf) = peer("fairy_stockfish_chess_over_uci", "fairy-stockfish") {
        play(
            "fsf-normal",
            "normal",
            &format!("cmd={} proto=uci", fsf.display()),
            "arg=uci proto=uci",
            "nodes=3000 timeout=60",
        );
    }
}

#[test]
fn fairy_stockfish_shatar_with_letter_map() {
    if let Some(fsf) = peer("fairy_stockfish_shatar_with_letter_map", "fairy-stockfish") {
        play(
            "fsf-shatar",
            "shatar",
            &format!("cmd={} proto=uci variant=shatar pieces=Q:J", fsf.display()),
            "arg=uci proto=uci",
            "nodes=3000 timeout=60",
        );
    }
}

/// A variant Fairy-Stockfish learns from a variants file (`option.VariantPath`, then
/// `variant=paulowich`): the runner must see the name in the engine's list after the
/// file is loaded, not stop with "does not play 'paulowich'".
///
/// `variants-fsf11.ini`'s `paulowich` is our `chancellor` except for the a-side castling
/// with the Chancellor (O-O-O), which Fairy-Stockfish 11.1 cannot express (it allows one
/// castling partner type, the Queen). So the games start from the start array with the
/// castling field reduced to `Kk`: O-O with the Queen, which both generate, stays
/// possible; O-O-O, the one move they would disagree on, cannot come up.
#[test]
fn fairy_stockfish_chancellor_from_variants_file() {
    let Some(fsf) = peer(
        "fairy_stockfish_chancellor_from_variants_file",
        "fairy-stockfish",
    ) else {
        return;
    };
    let ini = common::data_path("peers/variants-fsf11.ini");
    let dir = fresh_temp_dir("fsf-paulowich");
    let openings = dir.join("start.epd");
    std::fs::write(
        &openings,
        "cnbrkbnq/pppppppp/8/8/8/8/PPPPPPPP/CNBRKBNQ w Kk -\n",
    )
    .expect("write openings");
    let pgn = dir.join("games.pgn");
    let args = format!(
        "-engine name=sako cmd={SAKO} arg=uci proto=uci \
         -engine name=fsf cmd={} proto=uci option.VariantPath={} variant=paulowich \
         -each tc=2+0.05 timeout=30 -variant chancellor -games 2 -repeat -maxmoves 30 \
         -openings file={} format=epd -pgnout {}",
        fsf.display(),
        ini.display(),
        openings.display(),
        pgn.display()
    );
    let stdout = run_match(&words(&args));
    assert!(stdout.contains("fouls: sako: none;"), "{stdout}");
    for (g, _) in replayed_games("chancellor", &pgn, 2) {
        assert!(
            ["1-0", "0-1", "1/2-1/2"].contains(&g.result.as_str()),
            "{g:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `count` games of the PGN file at `path`, each replayed move by move by sako's
/// rules core (every move must be legal), with the game as it stands at the end.
fn replayed_games(variant: &str, path: &Path, count: usize) -> Vec<(PgnGame, Game)> {
    let text = std::fs::read_to_string(path).expect("pgn");
    let games = parse_pgn(&text).expect("parse");
    assert_eq!(games.len(), count, "{text}");
    games
        .into_iter()
        .map(|g| {
            let mut game = Game::new(variant, g.tag("FEN")).expect("start");
            for m in &g.moves {
                game.play(m).expect("legal");
            }
            (g, game)
        })
        .collect()
}
